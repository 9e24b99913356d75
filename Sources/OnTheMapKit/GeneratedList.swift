package import OpenAPIRuntime
package import struct Foundation.URL

/// The generated client's list call on its own, for KitBenchmark, which weighs each layer of the
/// package against a bare URLSession call. The generated code is internal to the package's module;
/// this is its one door, at package access, which no app sees.
package struct GeneratedList: Sendable {
    private let client: Client

    package init(serverURL: URL, transport: any ClientTransport) {
        client = Client(serverURL: serverURL, transport: transport)
    }

    /// How many of the latest 100 pins came, through the generated client alone.
    package func latest100() async throws -> Int {
        try await client.v1List(query: .init(limit: "100", order: "-updatedAt")).ok.body.json.results.count
    }
}
