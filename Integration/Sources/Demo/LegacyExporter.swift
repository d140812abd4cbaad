import Foundation

/// Code from before the app used injection: a plain class with plain stored properties and no markers.
/// ForcePlugin fills it by a decision over its fields (Wiring.swift), without changing the class.
final class LegacyExporter {
  var storage: (any NoteStorage)?
  var title = "Notes"
  var bullet = "*"

  /// The notes as Markdown.
  func markdown() -> String {
    let notes = storage?.load() ?? []
    return (["# \(title)", ""] + notes.map { "\(bullet) \($0.text)" }).joined(separator: "\n")
  }
}
