import Foundation
import InjectionKernel
import InjectionReadSections
import Synchronization
import Testing

private final class ExitReadHost: @unchecked Sendable {  // marked properties are atomic
  @Tracked var value: Int?
}

private let exitReadHost = ExitReadHost()
private let exitReads = Atomic<Int>(0)

/// A thread-specific key whose destructor reads a marked property, then sets its value again, so that
/// glibc calls it in every round of thread-exit destructors, the last (fourth) one included.
private let rereadingKey: pthread_key_t = {
  var key = pthread_key_t()
  pthread_key_create(&key) { pointer in
    guard let pointer else { return }
    let round = Int(bitPattern: pointer)
    if exitReadHost.value == 7 { exitReads.add(1, ordering: .relaxed) }
    if round < 4 { pthread_setspecific(rereadingKey, UnsafeRawPointer(bitPattern: round + 1)) }
  }
  return key
}()

private final class NoKeyHost: @unchecked Sendable {  // marked properties are atomic
  @Tracked var value: Int?
}
private let noKeyHost = NoKeyHost()

private final class LastRoundHost: @unchecked Sendable {  // marked properties are atomic
  @Tracked var value: Int?
}

private let lastRoundHost = LastRoundHost()

/// A key whose destructor sets its value again until glibc's last (fourth) round of thread-exit
/// destructors, and only then reads a marked property: the thread's first read section, after the
/// kernel's own exit destructor had its last chance to run.
private let lastRoundKey: pthread_key_t = {
  var key = pthread_key_t()
  pthread_key_create(&key) { pointer in
    guard let pointer else { return }
    let round = Int(bitPattern: pointer)
    if round < 4 {
      pthread_setspecific(lastRoundKey, UnsafeRawPointer(bitPattern: round + 1))
      return
    }
    precondition(lastRoundHost.value == 7)
  }
  return key
}()

/// Runs `body` on a new thread and waits for it (its exit destructors included).
private func onThread(_ body: @convention(c) (UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer?) {
  var thread = pthread_t()
  precondition(pthread_create(&thread, nil, body, nil) == 0)
  pthread_join(thread, nil)
}

/// Whether the thread sanitizer's runtime is in the process: it tears down its own state of a thread in
/// the thread's exit destructors, so sanitized code that runs after that crashes inside the sanitizer.
private let isThreadSanitized = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") != nil

@Suite struct ThreadExitTests {
  /// A thread that reads marked properties in every round of its exit destructors (after the kernel's own
  /// destructor took its reader record out of the registry) reads the injected value each time and leaves
  /// no record behind: a record left in the registry would point at the dead thread's memory, which a
  /// writer's grace period reads. It runs in a child process, where no other test starts threads; not
  /// under the thread sanitizer, whose runtime has torn down its state of the thread by the last round.
  @Test(.enabled(if: !isThreadSanitized)) func exitDestructorReadsLeaveNoReaderRecordBehind() async {
    await #expect(processExitsWith: .success) {
      let rules = InjectionRules()
      TrackedPlugin.inject(Int?(7), into: ExitReadHost.self, rules: rules)
      try Injection.commit(rules)
      let before = ik_registered_reader_count()
      var thread = pthread_t()
      let created = pthread_create(
        &thread, nil,
        { _ in
          precondition(exitReadHost.value == 7)  // the thread's first section links its record
          pthread_setspecific(rereadingKey, UnsafeRawPointer(bitPattern: 1))
          return nil
        }, nil)
      precondition(created == 0)
      pthread_join(thread, nil)
      precondition(exitReads.load(ordering: .relaxed) == 4, "a read in an exit destructor did not see the value")
      precondition(ik_registered_reader_count() == before, "the exited thread's record is still in the registry")
      exitReadHost.value = 8  // a write's grace period walks the registry
      precondition(exitReadHost.value == 8)
    }
  }

  /// With every thread-specific key taken before the kernel's first read, no record is ever unlinked
  /// (none can be handed to a key of another library's): they stay linked and valid, and writers go on.
  @Test(.enabled(if: !isThreadSanitized)) func readersWithoutAThreadExitKeyLeaveWritersWorking() async {
    await #expect(processExitsWith: .success) {
      var key = pthread_key_t()
      while pthread_key_create(&key, nil) == 0 {}  // every key taken: the kernel cannot make its own
      let rules = InjectionRules()
      TrackedPlugin.inject(Int?(7), into: NoKeyHost.self, rules: rules)
      try Injection.commit(rules)
      for _ in 1...20 {
        onThread { _ in
          precondition(noKeyHost.value != nil)
          return nil
        }
        noKeyHost.value = 8
        noKeyHost.value = 7
      }
      precondition(noKeyHost.value == 7)
    }
  }

  /// A thread whose first read section comes in the last round of its exit destructors (when the kernel's
  /// destructor, armed by that section, can no longer run) leaves its record linked: it must stay valid
  /// memory with no section in it. Before, the record lived in the thread's TLS, which the next thread
  /// reused and linked again: the registry became a cycle and the next write waited forever.
  @Test(.enabled(if: !isThreadSanitized)) func aFirstReadInTheLastRoundOfExitDestructorsLeavesWritersWorking() async {
    await #expect(processExitsWith: .success) {
      let rules = InjectionRules()
      TrackedPlugin.inject(Int?(7), into: LastRoundHost.self, rules: rules)
      try Injection.commit(rules)
      precondition(lastRoundHost.value == 7)  // the kernel's exit key exists before this test's key
      _ = lastRoundKey
      let before = ik_registered_reader_count()
      for _ in 1...50 {
        onThread { _ in
          pthread_setspecific(lastRoundKey, UnsafeRawPointer(bitPattern: 1))
          return nil
        }
        onThread { _ in
          lastRoundHost.value = 8  // replaces a stored value: a grace period walks the registry
          lastRoundHost.value = 7
          return nil
        }
      }
      // A record left linked is taken over by a later thread with the same identity (glibc reuses the
      // descriptors of joined threads): they do not pile up, one per such thread.
      precondition(ik_registered_reader_count() - before <= 4, "records of exited threads piled up")
      lastRoundHost.value = 9
      precondition(lastRoundHost.value == 9)
    }
  }
}
