/// The declaration tokens of marked properties by their wrappers' storage key paths, for unoptimized
/// builds.
///
/// An optimized build reads a wrapper's token as one load of the instance's field. An unoptimized build
/// projects the key path through the runtime, which copies the whole wrapper — its held word included,
/// a retain that must not race with a write replacing the held value, so it has to run inside a read
/// section, and a write then waits for it. Such builds project once per key path (inside a section) and
/// then look the token up here, outside any section. An instance whose wrapper was made elsewhere (in an
/// initializer) holds another token: its reads miss the fast path, and the slow path projects the
/// instance's own token.
@usableFromInline
enum DeclarationTokens {
  /// Whether the code calling this is unoptimized (its key path projections copy the whole wrapper).
  /// Not transparent, so the check folds only where it is inlined into optimized code.
  @inlinable
  static var projectionsCopyWrappers: Bool { _isDebugAssertConfiguration() }

  private static let tokens = LockedState<[AnyKeyPath: UInt]>([:])

  /// The token of the declaration `keyPath` names; `project` reads it from an instance the first time.
  @usableFromInline
  static func token(for keyPath: AnyKeyPath, project: () -> UInt) -> UInt {
    if let token = tokens.withLock({ $0[keyPath] }) { return token }
    let token = project()
    tokens.withLock { $0[keyPath] = token }
    return token
  }
}
