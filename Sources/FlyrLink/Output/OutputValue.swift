/// One cell of a converted output row; nil is a null.
enum OutputValue: Equatable {
    case text(String)
    case integer(Int64)
    case real(Double)
    case boolean(Bool)
}
