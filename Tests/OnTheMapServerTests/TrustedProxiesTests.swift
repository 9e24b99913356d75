@testable import OnTheMapServer
import Testing

/// `--trust-proxy` names the proxies it believes, and the client is the rightmost
/// hop of `X-Forwarded-For` that is not one of them; anyone else's header is ignored.
@Suite struct TrustedProxiesTests {
    let proxies = TrustedProxies(list: "127.0.0.1, 10.0.0.0/8, 2001:db8:ff::/48")!

    @Test func theClientIsTheRightmostHopThatIsNoProxy() {
        // The client wrote the leftmost hop itself: only what the proxies appended is believed.
        #expect(proxies.client(peer: "10.1.2.3", forwardedFor: "6.6.6.6, 198.51.100.7, 10.9.9.9") == "198.51.100.7")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: "198.51.100.7") == "198.51.100.7")
        #expect(proxies.client(peer: "2001:db8:ff:1::5", forwardedFor: "2001:db8:1::9") == "2001:db8:1::9")
        #expect(proxies.client(peer: "10.1.2.3", forwardedFor: "10.2.2.2, 10.3.3.3") == "10.2.2.2", "all proxies: the first hop")
        #expect(proxies.client(peer: "10.1.2.3", forwardedFor: nil) == "10.1.2.3")
    }

    @Test func aPeerThatIsNoProxyIsTheClientWhateverItSays() {
        #expect(proxies.client(peer: "203.0.113.9", forwardedFor: "1.2.3.4") == "203.0.113.9")
        #expect(TrustedProxies.loopback.client(peer: "192.168.1.5", forwardedFor: "1.2.3.4") == "192.168.1.5")
        #expect(TrustedProxies.loopback.client(peer: "::ffff:127.0.0.1", forwardedFor: "1.2.3.4") == "1.2.3.4")
        #expect(TrustedProxies.loopback.client(peer: "::1", forwardedFor: "1.2.3.4") == "1.2.3.4")
    }

    @Test(arguments: ["", "no-address", "10.0.0.0/33", "::/129", "10.0.0.0/x", "1.2.3.4/-1"])
    func aBadListIsRefused(list: String) {
        #expect(TrustedProxies(list: list) == nil)
    }

    @Test func rangesMatchByTheirPrefix() {
        let ranges = TrustedProxies(list: "192.168.0.0/16, 172.16.0.0/12, 2001:db8::/32, 203.0.113.5")!
        for inside in ["192.168.255.1", "172.31.0.1", "2001:db8:ffff::1", "203.0.113.5"] { #expect(ranges.contains(inside), "\(inside)") }
        for outside in ["192.169.0.1", "172.32.0.1", "2001:db9::1", "203.0.113.6", "unknown"] { #expect(!ranges.contains(outside), "\(outside)") }
    }
}
