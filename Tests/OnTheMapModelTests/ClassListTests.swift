import OnTheMapModel
import Testing

/// A class list as instructors paste it: every email found once, in order, and the lines with
/// none handed back so nobody is dropped unseen.
@Suite struct ClassListTests {
    @Test func emailsAreReadFromEveryLayoutAnInstructorPastes() {
        let list = ClassList("""
            Lovelace,Ada,ADA@example.com
            "Hopper; Grace"\tgrace@example.com\t2026
            Linus Torvalds <linus@example.org>
            bare@example.net

            Student without an address
              ada@example.com  
            two@example.com; three@example.com
            """)
        #expect(list.emails == ["ada@example.com", "grace@example.com", "linus@example.org", "bare@example.net", "two@example.com", "three@example.com"])
        #expect(list.unreadable == ["Student without an address"])
    }

    @Test func nothingThatIsNotAnEmailIsTaken() {
        let list = ClassList("@example.com\nada@\nada@.example.com\nada@example.com.\n")
        #expect(list.emails.isEmpty)
        #expect(list.unreadable.count == 4)
    }
}
