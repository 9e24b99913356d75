import Foundation
import Logging
import NIOConcurrencyHelpers
import OnTheMapGeocoder

/// The geocoder as the server sees it: loading in the background at start (so the first requests
/// to other endpoints are not delayed), then ready, or failed with the reason.
public final class GeocoderState: Sendable {
    public enum Phase: Sendable {
        case loading
        case ready(Geocoder)
        case failed(String)
    }

    private let phase: NIOLockedValueBox<Phase>

    /// A state that stays as given (tests, or a geocoder already loaded).
    public init(_ phase: Phase) {
        self.phase = NIOLockedValueBox(phase)
    }

    /// Starts loading the bundled gazetteer on a thread of its own.
    public static func loadingInBackground(logger: Logger) -> GeocoderState {
        let state = GeocoderState(.loading)
        Thread.detachNewThread {
            let started = ContinuousClock.now
            do {
                let geocoder = Geocoder(gazetteer: try Gazetteer.load())
                state.phase.withLockedValue { $0 = .ready(geocoder) }
                logger.info("Geocoder ready: \(geocoder.gazetteer.nameCount) names loaded in \(ContinuousClock.now - started)")
            } catch {
                state.phase.withLockedValue { $0 = .failed("\(error)") }
                logger.error("Geocoder failed to load: \(error)")
            }
        }
        return state
    }

    public var current: Phase { phase.withLockedValue { $0 } }
}
