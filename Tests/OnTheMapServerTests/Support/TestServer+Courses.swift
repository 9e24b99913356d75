import Foundation
import OnTheMapModel
@testable import OnTheMapServer
import OnTheMapStore

extension TestServer {
    /// A course taught by `instructor`, with `students` as its members, read by `visibility`.
    @discardableResult
    func makeCourse(
        _ slug: String, instructor: TestSession, students: [TestSession] = [], visibility: Course.Visibility = .members
    ) async throws -> Course {
        var course = try await store.createCourse(
            slug: try CourseSlug(rawValue: slug).orThrow("\(slug) is not a slug"), title: slug.uppercased(), instructorKey: instructor.key,
            now: 1_000)
        for student in students { try await store.setMember(student.key, of: course.id, role: .student, now: 1_000) }
        if visibility != course.visibility {
            course.visibility = visibility
            try await store.updateCourse(course)
        }
        return course
    }

    /// The list `path` answers, as `session` (nobody when nil).
    func list(_ path: String, as session: TestSession? = nil) async throws -> [StrictLocation] {
        let response = try await send(.get, path, headers: session?.bearerHeader ?? [:])
        guard response.status == .ok else { throw TestFailure("\(path) answered \(response.status): \(response.text)") }
        return try JSONDecoder.strict.decode(StrictResults.self, from: response.data).results
    }
}

extension Optional {
    func orThrow(_ failure: String) throws -> Wrapped {
        guard let self else { throw TestFailure(failure) }
        return self
    }
}
