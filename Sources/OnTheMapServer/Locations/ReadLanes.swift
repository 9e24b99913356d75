import OnTheMapModel

/// The lanes list reads run in (docs/API.md, "Fairness"): indexed reads and reads that may scan the
/// table each have their own budget, so a flood of expensive queries cannot starve the cheap ones.
/// Writes have theirs in the store's writer (a bounded line of pending writes).
struct ReadLanes: Sendable {
    let cheap: WorkLane
    let expensive: WorkLane

    init(_ configuration: AppConfiguration) {
        cheap = WorkLane(name: "reads", concurrency: configuration.cheapReadConcurrency, queueLimit: configuration.cheapReadQueue)
        expensive = WorkLane(
            name: "expensive queries", concurrency: configuration.expensiveReadConcurrency, queueLimit: configuration.expensiveReadQueue)
    }

    /// The lane for `query`.
    func lane(for query: LocationQuery) -> WorkLane {
        query.isIndexed ? cheap : expensive
    }
}
