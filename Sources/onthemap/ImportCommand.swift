import ArgumentParser
import Foundation
import Logging
import OnTheMapModel
import OnTheMapStore

/// `onthemap import FILE`: locations from an export or a Parse export, all or none.
struct ImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add the locations of a GeoJSON, CSV or JSON lines file (onthemap export's), or of a Parse export.",
        discussion: """
            Every location is checked with the API's rules first; if any fails, each failure is listed by line (CSV, \
            JSON lines) or position (GeoJSON's features, Parse's results) and nothing is imported. Otherwise all are \
            added in one transaction. objectId and dates are kept when the file has them; a location whose objectId \
            the database already holds refuses the import. The locations go to the default course unless --course \
            names another. A location belongs to the account whose key is its uniqueKey if that account exists and \
            has no pin in the course yet; otherwise it is stored without an owner. A GeoJSON export names its \
            course: it goes into that course only, unless --any-course says another course is meant.
            """)

    @OptionGroup var database: DatabaseOptions

    @Argument(help: ArgumentHelp("The file to read.", valueName: "file"))
    var file: String

    @Option(help: ArgumentHelp("The course to add them to (its slug; default: the default course).", valueName: "slug"))
    var course: String?

    @Flag(help: "Import a GeoJSON export that names another course into --course's (or the default) course all the same.")
    var anyCourse = false

    static let problemsShown = 50

    func run() async throws {
        guard let data = FileManager.default.contents(atPath: file) else { throw CommandFailure("import: cannot read \(file)") }
        let reading = LocationImport.read(data, now: WallClock.system.nowMillis())
        guard reading.problems.isEmpty else {
            let shown = reading.problems.prefix(Self.problemsShown).map { "  \($0)" }.joined(separator: "\n")
            let more = reading.problems.count > Self.problemsShown ? "\n  … and \(reading.problems.count - Self.problemsShown) more" : ""
            throw CommandFailure("import: \(file) (\(reading.format)) has \(reading.problems.count) rejected row(s); nothing was imported:\n\(shown)\(more)")
        }
        // The file says whose map it is: put into another course by mistake, it would mix two classes.
        let target = course ?? "default"
        if let named = reading.course, named != target, !anyCourse {
            throw CommandFailure(
                "import: \(file) is the map of the course \(named), not of \(target); nothing was imported. "
                    + "Import it with --course \(named), or add --any-course to put it into \(target) all the same.")
        }
        var logger = Logger(label: "onthemap")
        logger.logLevel = .warning
        let engine = try await database.open(logger: logger)
        let owned: Int
        do {
            owned = try await engine.store.importLocations(reading.rows.map(\.location), into: try await CourseOption.course(course, in: engine.store))
        } catch let conflict as SQLStore.ImportConflict {
            try? await engine.close()
            let listed = conflict.existing.prefix(10).joined(separator: ", ")
            throw CommandFailure("import: the database already holds \(conflict.existing.count) of these objectIds (\(listed)); nothing was imported")
        } catch let failure as CommandFailure {
            try? await engine.close()
            throw failure
        } catch {
            try? await engine.close()
            throw CommandFailure("import: \(error); nothing was imported")
        }
        try await engine.close()
        print("Imported \(reading.rows.count) locations from \(file) (\(reading.format)), \(owned) linked to their accounts.")
    }
}
