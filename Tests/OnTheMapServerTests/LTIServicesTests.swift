@testable import OnTheMapServer
import Testing

/// The small rules of calling a platform's services (the whole calls run against a real platform
/// in `make lti-test`): a member list's next page, a line item's scores URL, who teaches.
@Suite struct LTIServicesTests {
    @Test func theNextPageIsTheLinkMarkedNext() {
        #expect(LTIServiceClient.nextLink(#"<https://lms.example.edu/m?page=1>; rel="prev", <https://lms.example.edu/m?page=3>; rel="next""#)
                == "https://lms.example.edu/m?page=3")
        #expect(LTIServiceClient.nextLink(#"<https://lms.example.edu/m?page=2>; rel=next"#) == "https://lms.example.edu/m?page=2")
        #expect(LTIServiceClient.nextLink(#"<https://lms.example.edu/m?page=1>; rel="prev""#) == nil)
    }

    @Test func aLineItemsScoresAreBesideItBeforeItsQuery() {
        #expect(LTIGrades.scoresURL("https://lms.example.edu/ags/ctx/lineitems/7") == "https://lms.example.edu/ags/ctx/lineitems/7/scores")
        #expect(LTIGrades.scoresURL("https://lms.example.edu/ags/ctx/lineitems/7/?type=x") == "https://lms.example.edu/ags/ctx/lineitems/7/scores?type=x")
    }

    @Test func aMemberListsRolesSayWhoTeaches() {
        #expect(LTIRoles.teach(["http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor"]))
        #expect(!LTIRoles.teach(["http://purl.imsglobal.org/vocab/lis/v2/membership#Learner"]))
        #expect(!LTIRoles.teach([]))
    }
}
