import LazyPlugin

// An app that depends on LazyPlugin alone (no InjectPlugin, no ImperativePlugin): it builds and works.

final class Inbox {
  @Lazy var messages: [String]
}

try Injection.injectLazy(in: Inbox.self)
let inbox = Inbox()
inbox.messages.append("hello")
guard inbox.messages == ["hello"] else { fatalError("@Lazy did not create the array") }
print("LazyOnly: \(inbox.messages)")
