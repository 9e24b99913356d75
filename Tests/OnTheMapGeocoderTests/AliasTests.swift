@testable import OnTheMapGeocoder
import Testing

/// Every row of the hand-kept alias table (Resources/aliases.tsv) answers its
/// target first, alone and with the target's country after it.
@Suite struct AliasTests {
    @Test func theTableIsRead() {
        #expect(Shared.geocoder.gazetteer.aliases.count >= 100)
    }

    @Test(arguments: Shared.geocoder.gazetteer.aliases.map(\.alias))
    func aliasAnswersItsTarget(alias: String) throws {
        let gazetteer = Shared.geocoder.gazetteer
        let feature = try #require(gazetteer.aliases.first { $0.alias == alias }?.feature)
        let target = gazetteer.displayName(of: gazetteer.features[feature])
        #expect(Shared.best(alias)?.name == target, "\(alias) → \(String(describing: Shared.best(alias)?.name)), not \(target)")
    }
}
