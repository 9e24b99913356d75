/// What an admin, or someone who is not one, is refused (docs/API.md, "Moderation").
extension APIError {
    /// An admin action that would leave the map without an active admin.
    public static let lastAdmin = APIError(
        status: 409, code: ParseErrorCode.operationForbidden,
        message: "This is the last active admin: make another account an admin first.")

    /// An admin about to change an account has not typed their password in the last few minutes.
    public static let passwordConfirmationRequired = APIError(
        status: 403, code: ParseErrorCode.operationForbidden,
        message: "Type your password again to change accounts: POST /v1/me/confirm-password, then send this again.",
        parameter: "password")

    /// Confirming the password of an account made by a provider's sign-in, which has none.
    public static let noPasswordToConfirm = APIError(
        status: 403, code: ParseErrorCode.operationForbidden,
        message: "This account signs in with a provider and has no password: sign in again to confirm it is you.")

    /// An admin route asked for by someone who is not one.
    public static let adminOnly = APIError(
        status: 403, code: ParseErrorCode.operationForbidden, message: "Only an admin of this map may do this.")
}
