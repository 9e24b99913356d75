import Foundation
import OnTheMapKit

let server = URL(string: ProcessInfo.processInfo.environment["ONTHEMAP_SERVER"] ?? "http://127.0.0.1:8080")!
let client = OnTheMapClient(baseURL: server)
do {
    try await client.signUp(email: "ada@example.com", password: "correct horse battery", firstName: "Ada", lastName: "Lovelace")
} catch {
    guard error.kind == .emailTaken else { throw error }
    try await client.logIn(email: "ada@example.com", password: "correct horse battery")
}

let lima = try await client.geocode("Lima, Peru").places[0]
try await client.post(NewLocation(place: lima, typed: "Lima, Peru", mediaURL: "https://example.com/ada"))

for pin in try await client.latest(limit: 100) {
    print(pin.firstName, pin.lastName, "is in", pin.mapString)
}

for try await update in client.liveUpdates() {
    if case .created(let pin) = update { print("New on the map:", pin.firstName, pin.mapString) }
}
