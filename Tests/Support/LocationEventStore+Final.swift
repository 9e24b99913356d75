import OnTheMapStore

extension LocationEventStore {
    /// Waits until every event committed so far is final. On PostgreSQL an event is final once every
    /// older transaction of the cluster has ended, and the suites run side by side on one cluster,
    /// so another suite's write can hold this one's events back for a moment.
    public func waitUntilEventsAreFinal() async throws {
        while true {
            let beyondTheLast = try await locationEventBatch(after: locationEventRange()?.upperBound ?? 0, limit: 1, in: nil)
            if beyondTheLast.events.isEmpty && !beyondTheLast.heldBack { return }
            try await Task.sleep(for: .milliseconds(5))
        }
    }
}
