/// The five bytes `)]}'` + newline that the Udacity session and user endpoints put before their JSON.
///
/// Clients strip them with `data.subdata(in: 5..<data.count)`, which traps on a shorter body: every
/// response of those endpoints starts with them, errors included.
public enum UdacityPrefix {
    public static let bytes: [UInt8] = Array(")]}'\n".utf8)
}
