import Foundation
import HTTPTypes
import Hummingbird
import OnTheMapModel

/// Serves the web client: its page at `/`, made for each request (`FirstPage`), its own files,
/// Leaflet under `/vendor/leaflet/`, and `/config.json` telling the client which map background the
/// operator chose and which providers students may sign in with.
struct WebController: Sendable {
    /// The files served as they are, by URL path.
    let assets: [String: StaticAsset]
    /// The page (`/`, `/index.html`), made for each request from what it says.
    let firstPage: FirstPage
    /// Why a bundle that is there is not served (it is older than the modules), for the log.
    let bundleNote: String?
    /// A course's embeddable map (`embedPattern`), and the policy that lets any page frame it.
    let embedPage: StaticAsset
    let embedPolicy: String
    /// The map's background, which the policy of a page framed by a learning platform names too.
    private let tiles: TileSource?

    /// Reads every file once. A missing Leaflet is a start-up error that says what to install.
    init(settings: WebClientSettings, signInProviders: [SignInProvider] = [], webRoot: URL = WebController.bundledWebRoot) throws {
        guard FileManager.default.fileExists(atPath: settings.leafletDirectory + "/leaflet.js"),
              FileManager.default.fileExists(atPath: settings.leafletDirectory + "/leaflet.markercluster.js") else {
            throw StaticAssetLoader.LoadError(description: """
                Leaflet was not found in \(settings.leafletDirectory): install Debian's libjs-leaflet and \
                libjs-leaflet.markercluster (make run does), or point --leaflet-dir at a directory holding \
                leaflet.js and leaflet.markercluster.js.
                """)
        }
        var assets = try StaticAssetLoader.load(directory: webRoot, prefix: "/")
        assets.merge(try StaticAssetLoader.load(directory: URL(fileURLWithPath: settings.leafletDirectory), prefix: "/vendor/leaflet/")) { own, _ in own }
        if FileManager.default.fileExists(atPath: settings.qrCodeDirectory + "/qrcode.js") {
            assets.merge(try StaticAssetLoader.load(directory: URL(fileURLWithPath: settings.qrCodeDirectory), prefix: "/vendor/qrcode/")) { own, _ in own }
        }
        let configuration = try Self.clientConfiguration(settings, signInProviders: signInProviders)
        assets["/config.json"] = try StaticAsset(bytes: configuration, contentType: StaticAsset.contentTypes["json"]!)
        guard let page = assets.removeValue(forKey: "/index.html"), let worker = assets["/sw.js"], let style = assets["/app.css"],
              let embed = assets.removeValue(forKey: "/embed.html") else {
            throw StaticAssetLoader.LoadError(description: "the web client has no index.html, embed.html, app.css or sw.js in \(webRoot.path)")
        }
        embedPage = embed
        tiles = settings.tiles
        embedPolicy = ContentSecurityPolicy.header(tiles: settings.tiles, frameAncestors: "*")
        assets["/\(WebBundle.folder)/\(WebBundle.metafile)"] = nil
        let scripts: FirstPage.Scripts
        (scripts, bundleNote) = try Self.pageScripts(webRoot: webRoot, assets: &assets, worker: worker)
        let languages = ReaderLanguage.codes(servedAt: assets.keys)
        firstPage = try FirstPage(
            template: String(buffer: page.body), scripts: scripts, style: String(buffer: style.body), clientConfiguration: configuration,
            languages: languages, contentType: page.contentType)
        self.assets = assets
    }

    /// What the page runs: the bundle when it was made from these modules (the service worker then
    /// keeps its files), else the modules themselves; and why a bundle that is there is not used.
    private static func pageScripts(
        webRoot: URL, assets: inout [String: StaticAsset], worker: StaticAsset
    ) throws -> (FirstPage.Scripts, note: String?) {
        switch WebBundle.read(webRoot: webRoot, assets: assets) {
        case .current(let bundle):
            let script = try OfflineShell.serviceWorker(String(buffer: worker.body), scripts: bundle.files)
            assets["/sw.js"] = try StaticAsset(bytes: Array(script.utf8), contentType: worker.contentType)
            return (.init(entry: bundle.entry, preloads: bundle.preloads), nil)
        case .setAside(let reason):
            let modules = assets.filter { $0.key.hasPrefix("/js/") && $0.key.hasSuffix(".js") }.mapValues { String(buffer: $0.body) }
            let scripts = FirstPage.Scripts(entry: "/js/main.js", preloads: ModulePreloads.imports(of: "/js/main.js", files: modules))
            return (scripts, reason.map { "the web client's bundle is not served, its modules are: \($0)" })
        }
    }

    /// Makes every gzip form now, one after another, so that the first visitors after a start do
    /// not wait for them (run in the background once the server is up).
    func precompress() async {
        for asset in firstPage.allPages + [embedPage] + assets.values { _ = await asset.gzipped() }
    }

    /// The client's files as built into the server's resource bundle.
    static var bundledWebRoot: URL { Bundle.module.resourceURL!.appendingPathComponent("Public") }

    /// The paths its routes name: a file at the root by its own name, and each folder's files through
    /// one route ending in a `:file` parameter. A route per file put ~2,700 routes (with their 405s)
    /// into Hummingbird's trie at every start, whose nodes look for a child one by one, and one
    /// folder holds 227 map tiles: a second of CPU per start in a debug build, enough to hold up
    /// other servers sharing the process. The root keeps a route per file: a parameter there would
    /// also take other families' unknown paths.
    var routePatterns: [String] {
        Set(assets.keys.map { path in
            let name = path.lastIndex(of: "/").map { path[path.index(after: $0)...] } ?? ""
            let folder = path.dropLast(name.count)
            return folder == "/" ? path : folder + ":" + Self.fileParameter
        }).sorted()
    }

    /// The parameter that names a file in its folder's route.
    private static let fileParameter = "file"

    func addRoutes(to routes: FamilyGroup) {
        for pattern in ["/", "/index.html"] {
            routes.file(pattern, exists: { _, _ in true }) { request, _ in
                await Self.response(for: firstPage.page(for: request), request: request, vary: FirstPage.vary)
            }
        }
        for pattern in routePatterns {
            // A folder's route looks its file up under the folder's path; a root file's is the pattern.
            let folder = pattern.hasSuffix("/:" + Self.fileParameter) ? String(pattern.dropLast(Self.fileParameter.count + 1)) : nil
            let asset = { @Sendable (context: AppRequestContext) -> StaticAsset? in
                guard let folder else { return assets[pattern] }
                return context.parameters.get(Self.fileParameter).flatMap { assets[folder + $0] }
            }
            routes.file(pattern, exists: { _, context in asset(context) != nil }) { request, context in
                guard let asset = asset(context) else { throw HTTPError(.notFound) }
                return await Self.response(for: asset, request: request)
            }
        }
        routes.file(Self.invitePattern, exists: { _, _ in true }) { _, context in try Self.inviteAnswer(context) }
        routes.file(Self.embedPattern, exists: { _, _ in true }) { [embedPage, embedPolicy] request, context in
            guard context.parameters.get("course").flatMap(CourseSlug.init(rawValue:)) != nil else { throw HTTPError(.notFound) }
            var response = await Self.response(for: embedPage, request: request)
            response.headers[.contentSecurityPolicy] = embedPolicy
            return response
        }
    }

    /// The app's page as an LTI launch answers it (`FirstPage.launchPage`): in the reader's language,
    /// with `session` (the launch's data block, JSON) for its script, framed only by
    /// `frameAncestors` (the platform's origins, `LTIFrame`). Never stored: it may hold a session.
    func launchPage(for request: Request, course: CourseSlug?, session: String, frameAncestors: String) -> Response {
        let page = firstPage.launchPage(language: firstPage.reader.choose(for: request), course: course, session: session)
        let policy = ContentSecurityPolicy.header(tiles: tiles, styleDigests: [firstPage.styleDigest], frameAncestors: frameAncestors)
        return Response(
            status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store", .contentSecurityPolicy: policy],
            body: ResponseBody(byteBuffer: ByteBuffer(string: page)))
    }

    /// A course's map for other sites' pages (an `iframe` on a course page): read-only, for courses
    /// readable by link. Its script finds the course in its address.
    static let embedPattern = CourseMount.namedPrefix + "/embed"

    /// A course's invite link (`CourseInvite`), as printed and shown to instructors.
    static let invitePattern = CourseMount.namedPrefix + "/join/:token"

    /// The invite link opens the app's join screen, which joins, or first asks the student to log
    /// in or sign up. The token goes on in the address's fragment, which browsers never send: it
    /// stays out of later requests' logs and `Referer`s.
    private static func inviteAnswer(_ context: AppRequestContext) throws -> Response {
        guard let slug = context.parameters.get("course").flatMap(CourseSlug.init(rawValue:)),
              let token = context.parameters.get("token"), CourseInvite.looksLikeToken(token) else { throw HTTPError(.notFound) }
        return Response(status: .seeOther, headers: [.location: "/#/join/\(slug.rawValue)/\(token)", .cacheControl: "no-store"])
    }

    /// The asset, gzipped when the client accepts it, or 304 when the client's copy is current.
    /// `no-cache` makes browsers revalidate, so a new release is picked up at the next load.
    static func response(for asset: StaticAsset, request: Request, vary: String? = nil) async -> Response {
        let representation = Representation(
            etag: asset.etag, plain: asset.body,
            gzip: ResponseCompression.acceptsGzip(request.headers[.acceptEncoding]) ? await asset.gzipped() : nil,
            ifNoneMatch: request.headers[.ifNoneMatch])
        var headers: HTTPFields = [.contentType: asset.contentType, .eTag: representation.tag, .cacheControl: "no-cache"]
        if let vary { headers[.vary] = vary } else if asset.gzip != nil { headers[.vary] = "Accept-Encoding" }
        if representation.isCurrentAtClient { return Response(status: .notModified, headers: headers) }
        if representation.isGzip { headers[.contentEncoding] = "gzip" }
        headers[.contentLength] = String(representation.body.readableBytes)
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: representation.body))
    }

    /// `{"signIn": [{"id", "name", "start"}], "tiles": {"url", "attribution"}}`, with `"tiles": null` for
    /// the offline basemap alone.
    private static func clientConfiguration(_ settings: WebClientSettings, signInProviders: [SignInProvider]) throws -> Data {
        struct Body: Encodable {
            struct Tiles: Encodable { let url: String; let attribution: String }
            struct Provider: Encodable { let id: String; let name: String; let start: String }
            let signIn: [Provider]
            let tiles: Tiles?
            enum CodingKeys: CodingKey { case signIn, tiles }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(signIn, forKey: .signIn)
                try container.encode(tiles, forKey: .tiles)
            }
        }
        return try JSONWire.encoder().encode(Body(
            signIn: signInProviders.map { .init(id: $0.id, name: $0.displayName, start: "/v1/oidc/\($0.id)/start") },
            tiles: settings.tiles.map { .init(url: $0.urlTemplate, attribution: $0.attribution) }))
    }
}
