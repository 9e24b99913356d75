import Foundation
import OnTheMapKit
import OnTheMapKitAsyncHTTPClient

let server = URL(string: ProcessInfo.processInfo.environment["ONTHEMAP_SERVER"] ?? "http://127.0.0.1:8080")!
// `httpClient:` is what picks AsyncHTTPClient: without it, this is the URLSession client.
let client = OnTheMapClient(baseURL: server, httpClient: .onTheMapDefault)
for pin in try await client.latest(limit: 100) {
    print(pin.firstName, pin.lastName, "is in", pin.mapString)
}
