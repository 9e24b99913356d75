/// RFC 4180 records: fields split by commas, quoted fields may hold commas, doubled quotes and line
/// breaks; a record ends at CRLF or LF outside quotes. Each record says the line it starts on.
public enum CSVReader {
    public struct Record: Sendable, Equatable {
        public let line: Int
        public let fields: [String]
    }

    public struct Failure: Error, Equatable {
        public let line: Int
        public let message: String
    }

    public static func records(_ text: String) throws(Failure) -> [Record] {
        var records: [Record] = []
        var fields: [String] = []
        var field = ""
        var quoted = false          // inside a quoted field
        var wasQuoted = false       // the current field was quoted (text after its closing quote is an error)
        var line = 1
        var recordLine = 1
        var characters = Array(text.unicodeScalars.map(Character.init))
        if characters.first == "\u{feff}" { characters.removeFirst() }   // a spreadsheet's byte order mark
        var index = 0
        func endRecord() {
            fields.append(field)
            if !(fields.count == 1 && fields[0].isEmpty && !wasQuoted) { records.append(Record(line: recordLine, fields: fields)) }
            fields = []
            field = ""
            wasQuoted = false
        }
        while index < characters.count {
            let character = characters[index]
            index += 1
            if quoted {
                if character == "\"" {
                    if index < characters.count, characters[index] == "\"" {
                        field.append("\"")
                        index += 1
                    } else {
                        quoted = false
                    }
                } else {
                    if character == "\n" { line += 1 }
                    field.append(character)
                }
                continue
            }
            switch character {
            case ",":
                fields.append(field)
                field = ""
                wasQuoted = false
            case "\"" where field.isEmpty && !wasQuoted:
                quoted = true
                wasQuoted = true
            case "\r" where index < characters.count && characters[index] == "\n":
                continue
            case "\n", "\r":
                endRecord()
                line += 1
                recordLine = line
            default:
                if wasQuoted { throw Failure(line: line, message: "text after a closing quote") }
                field.append(character)
            }
        }
        if quoted { throw Failure(line: recordLine, message: "a quoted field is never closed") }
        if !field.isEmpty || !fields.isEmpty || wasQuoted { endRecord() }
        return records
    }
}
