import Foundation
import OnTheMapGeocoder

/// `geocode-eval [FILE] [--require RATE] [--require-kind RATE] [--floor KIND=RATE…]`: runs the geocoder over an evaluation
/// set and prints the pass rate per kind. A row passes when the best answer lies within the row's
/// tolerance of the expected point and in the expected country; a row of kind `no-answer` passes
/// when there is none. With --require RATE, exits 1 when the overall rate falls below RATE, any
/// kind below the --require-kind rate (90% unless given), or any no-answer row fails (`make geocode-check`
/// holds eval/geocoder.tsv to --require 0.98 --require-kind 0.95). Beside each kind's rate: the
/// median distance of its answers from the truth.
struct Row {
    let kind: String
    let query: String
    let latitude: Double
    let longitude: Double
    let country: String
    let toleranceKilometres: Double
    let source: String
}

func kilometres(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
    let radians = Double.pi / 180
    let a = sin((lat2 - lat1) * radians / 2), b = sin((lon2 - lon1) * radians / 2)
    let h = a * a + cos(lat1 * radians) * cos(lat2 * radians) * b * b
    return 2 * 6371.0 * asin(min(1, h.squareRoot()))
}

var arguments = Array(CommandLine.arguments.dropFirst())
/// The value after `flag`, removed from the arguments with it.
@MainActor func option(_ flag: String) -> Double? {
    guard let index = arguments.firstIndex(of: flag), index + 1 < arguments.count else { return nil }
    defer { arguments.removeSubrange(index...index + 1) }
    return Double(arguments[index + 1])
}
let required = option("--require")
let requiredPerKind = option("--require-kind") ?? 0.9
/// `--floor KIND=RATE` (repeatable): that kind's own floor instead of --require-kind, for a set whose
/// harder kinds are still being built (each floor is where the kind stands, so it can only go up).
var floors: [String: Double] = [:]
while let index = arguments.firstIndex(of: "--floor"), index + 1 < arguments.count {
    let setting = arguments[index + 1].split(separator: "=")
    guard setting.count == 2, let rate = Double(setting[1]) else {
        FileHandle.standardError.write(Data("--floor wants KIND=RATE, not \(arguments[index + 1])\n".utf8))
        exit(2)
    }
    floors[String(setting[0])] = rate
    arguments.removeSubrange(index...index + 1)
}
let path = arguments.first ?? "eval/geocoder.tsv"
guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
    FileHandle.standardError.write(Data("cannot read \(path)\n".utf8))
    exit(2)
}
var rows: [Row] = []
for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
    if line.hasPrefix("#") || line.isEmpty || number == 0 { continue }
    let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
    guard fields.count == 7 else {
        FileHandle.standardError.write(Data("\(path):\(number + 1): expected 7 fields, found \(fields.count)\n".utf8))
        exit(2)
    }
    rows.append(Row(kind: fields[0], query: fields[1], latitude: Double(fields[2]) ?? .nan, longitude: Double(fields[3]) ?? .nan,
                    country: fields[4], toleranceKilometres: Double(fields[5]) ?? 0, source: fields[6]))
}

let loadStart = ContinuousClock.now
let geocoder = Geocoder(gazetteer: try Gazetteer.load())
print("gazetteer loaded in \(ContinuousClock.now - loadStart); \(rows.count) rows from \(path)\n")

var passedByKind: [String: (passed: Int, total: Int)] = [:]
/// How far each answered row's best answer is from its truth, by kind: the precision a pass hides.
var distancesByKind: [String: [Double]] = [:]
var failures: [String] = []
var noAnswerFailed = false
for row in rows {
    let answer = geocoder.geocode(row.query, limit: 1).first
    let passed: Bool
    let detail: String
    if row.kind == "no-answer" {
        passed = answer == nil
        detail = answer.map { "answered \($0.name)" } ?? ""
        if !passed { noAnswerFailed = true }
    } else if let answer {
        let distance = kilometres(row.latitude, row.longitude, answer.latitude, answer.longitude)
        distancesByKind[row.kind, default: []].append(distance)
        passed = distance <= row.toleranceKilometres && answer.countryCode == row.country
        detail = "\(answer.name) [\(answer.countryCode)], \(Int(distance.rounded())) km off (tolerance \(Int(row.toleranceKilometres)))"
    } else {
        passed = false
        detail = "no answer"
    }
    passedByKind[row.kind, default: (0, 0)].total += 1
    if passed { passedByKind[row.kind, default: (0, 0)].passed += 1 } else { failures.append("  [\(row.kind)] \(row.query): \(detail)") }
}

func percent(_ passed: Int, _ total: Int) -> String { String(format: "%5.1f%%", 100 * Double(passed) / Double(max(total, 1))) }
/// The median of the answered rows' distances; the unanswered are left out, counted as failures.
@MainActor func median(_ kind: String) -> String {
    let distances = (distancesByKind[kind] ?? []).sorted()
    guard !distances.isEmpty else { return "" }
    return String(format: "%7.1f km", distances[distances.count / 2])
}
print("kind                  passed  rate   median off")
var belowRequired = false
for kind in passedByKind.keys.sorted() {
    let (passed, total) = passedByKind[kind]!
    print("\(kind.padding(toLength: 20, withPad: " ", startingAt: 0))  \(String(passed).leftPad(3))/\(String(total).leftPad(3))  \(percent(passed, total))  \(median(kind))")
    if required != nil, Double(passed) / Double(total) < floors[kind] ?? requiredPerKind {
        print("  ↑ below its floor of \(percent(Int(((floors[kind] ?? requiredPerKind) * 1000).rounded()), 1000))")
        belowRequired = true
    }
}
let totalPassed = passedByKind.values.map(\.passed).reduce(0, +)
print("all                   \(String(totalPassed).leftPad(3))/\(String(rows.count).leftPad(3))  \(percent(totalPassed, rows.count))")
if !failures.isEmpty { print("\nfailures:\n" + failures.joined(separator: "\n")) }
if let required, Double(totalPassed) / Double(rows.count) < required || belowRequired || noAnswerFailed {
    print("\nbelow target: all rows ≥ \(Int(required * 100))%, every kind ≥ its floor (\(Int(requiredPerKind * 100))% unless set), "
        + "every no-answer row passes")
    exit(1)
}

extension String {
    func leftPad(_ width: Int) -> String { count >= width ? self : String(repeating: " ", count: width - count) + self }
}
