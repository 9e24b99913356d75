// swift-tools-version:6.1
// The OpenAPI generator, pinned, as a tool of its own: OnTheMapKit's generated code is committed, so
// apps that add the package never build the generator. `make client-code` runs it; `make test`
// checks that the committed code is what it makes of today's openapi.json.
import PackageDescription

let package = Package(
    name: "openapi-tools",
    dependencies: [.package(url: "https://github.com/apple/swift-openapi-generator.git", exact: "1.14.3")],
    targets: []
)
