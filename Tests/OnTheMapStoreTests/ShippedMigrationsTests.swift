@testable import OnTheMapPostgres
@testable import OnTheMapSQLite
@testable import OnTheMapStore
import Testing

/// A database is upgraded by the migrations it has not applied yet, so a migration, once shipped,
/// must give each engine the very statements it always gave: a database migrated before and one
/// migrated after would otherwise differ. Each engine's flavour supplies the pieces that differ;
/// this holds every migration's statements, in each flavour, to a digest of the text it shipped with.
@Suite struct ShippedMigrationsTests {
    /// FNV-1a (64 bits) of each migration's statements joined by "\n;\n". A new migration gets its
    /// digests here as it ships; an old one's never change.
    static let shipped: [(flavour: any SQLFlavour, digests: [Int: UInt64])] = [
        (SQLiteFlavour(), [
            1: 0x69df_f1f4_8e52_39db, 2: 0xe948_f1d5_f081_5777, 3: 0xc5b4_0e4e_6b81_9a2e, 4: 0x8a5d_d1dc_a07f_4953,
            5: 0x10c1_2457_e674_7696, 6: 0x087c_d61b_18a8_bc2c, 7: 0x66e2_689b_b465_a16d, 8: 0x7614_4a36_a9e5_29b9,
            9: 0x64f4_56ff_b520_cc33, 10: 0xcbf2_9ce4_8422_2325, 11: 0xcbf2_9ce4_8422_2325, 12: 0xbd82_2f22_b2ca_819f,
            13: 0x0df4_14f9_93e5_47ff, 14: 0x532d_d699_1a12_5a34, 15: 0x2e3e_d620_fd0d_f31c, 16: 0x7379_1e98_84cd_8692,
            17: 0xfdb5_0c46_b7e6_a1bd, 18: 0x052c_e875_bfc3_f39a, 19: 0xd32a_4d20_b664_c705,
        ]),
        (PostgresFlavour(), [
            1: 0xcde8_631b_65d7_30e1, 2: 0x0b32_59c9_2d99_031f, 3: 0xa04c_3a5c_f07e_e773, 4: 0xffdb_f2dc_a298_bc25,
            5: 0xd154_47b4_2ae6_5224, 6: 0x087c_d61b_18a8_bc2c, 7: 0x7887_d1ea_2908_1143, 8: 0xdfed_6c0a_2861_6e98,
            9: 0xdd69_9ca5_df96_5cd8, 10: 0x1b0b_a85c_79c8_ae71, 11: 0xfbe8_3fb4_dafd_41cc, 12: 0xbd82_2f22_b2ca_819f,
            13: 0x9e63_39ff_a688_6c76, 14: 0x532d_d699_1a12_5a34, 15: 0xdaa4_ca1c_0eed_3c32, 16: 0x3b00_bf37_9bef_878e,
            17: 0xfdb5_0c46_b7e6_a1bd, 18: 0xf994_5d99_9755_845b, 19: 0xd2b2_53e7_5450_a1b0,
        ]),
    ]

    @Test(arguments: shipped.indices) func everyShippedMigrationGivesTheStatementsItShippedWith(engine: Int) {
        let (flavour, digests) = Self.shipped[engine]
        for migration in Schema.migrations {
            let digest = Self.fnv1a(migration.statements(flavour).joined(separator: "\n;\n"))
            #expect(digests[migration.version] == digest, """
                migration \(migration.version) on \(type(of: flavour)): \(String(digest, radix: 16)) \
                (a shipped migration must not change; a new one adds its digest here)
                """)
        }
    }

    static func fnv1a(_ text: String) -> UInt64 {
        text.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x100_0000_01b3 }
    }
}
