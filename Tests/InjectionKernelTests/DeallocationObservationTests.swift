import Foundation
import InjectionKernel
import Testing

private final class WatchedScreen {}
private final class CancelledWatchScreen {}
private final class TwiceWatchedScreen {}
private final class ThreadWatchedScreen {}
private final class WatchedClassObject {}
private final class CancelledFromActionScreen {}
private final class CancelledMeanwhileScreen {}

@Suite struct DeallocationObservationTests {
  @Test func theActionRunsOnceTheObjectIsDeallocatedAndNotBefore() {
    let ran = LockedState(0)
    var screen: WatchedScreen? = WatchedScreen()
    weak let watched = screen
    Injection.onDeallocation(of: screen!) { ran.withLock { $0 += 1 } }
    #expect(ran.withLock { $0 } == 0)
    #expect(watched != nil)
    screen = nil
    #expect(watched == nil)  // the observation kept nothing alive
    #expect(ran.withLock { $0 } == 1)
  }

  @Test func aCancelledObservationNeverRuns() {
    let ran = LockedState<[String]>([])
    var screen: CancelledWatchScreen? = CancelledWatchScreen()
    let cancelled = Injection.onDeallocation(of: screen!) { ran.withLock { $0.append("cancelled") } }
    Injection.onDeallocation(of: screen!) { ran.withLock { $0.append("kept") } }
    cancelled.cancel()
    cancelled.cancel()  // idempotent
    screen = nil
    #expect(ran.withLock { $0 } == ["kept"])
    cancelled.cancel()  // after the object is gone: nothing to withdraw
  }

  @Test func anActionCancelledByAnEarlierActionOfTheSameObjectDoesNotRun() {
    // Before, cancel() went through the object's action list, which reads as gone once its actions start:
    // it withdrew nothing and the action ran (review H76).
    let ran = LockedState<[String]>([])
    let later = LockedState<DeallocationObservation?>(nil)
    var screen: CancelledFromActionScreen? = CancelledFromActionScreen()
    Injection.onDeallocation(of: screen!) {
      later.withLock { $0 }?.cancel()
      ran.withLock { $0.append("first") }
    }
    let second = Injection.onDeallocation(of: screen!) { ran.withLock { $0.append("second") } }
    later.withLock { $0 = second }
    screen = nil
    #expect(ran.withLock { $0 } == ["first"])
  }

  @Test func anActionCancelledFromAnotherThreadWhileAnEarlierOneRunsDoesNotRun() {
    let ran = LockedState<[String]>([])
    let started = DispatchSemaphore(value: 0)
    let cancelled = DispatchSemaphore(value: 0)
    let released = DispatchSemaphore(value: 0)
    nonisolated(unsafe) var screen: CancelledMeanwhileScreen? = CancelledMeanwhileScreen()
    Injection.onDeallocation(of: screen!) {
      started.signal()
      cancelled.wait()  // the cancel below returns while this action runs
      ran.withLock { $0.append("first") }
    }
    let second = Injection.onDeallocation(of: screen!) { ran.withLock { $0.append("second") } }
    Thread {
      screen = nil
      released.signal()
    }.start()
    started.wait()
    second.cancel()
    cancelled.signal()
    released.wait()
    #expect(ran.withLock { $0 } == ["first"])
  }

  @Test func actionsRunInTheOrderTheyWereAdded() {
    let ran = LockedState<[Int]>([])
    var screen: TwiceWatchedScreen? = TwiceWatchedScreen()
    for index in 0..<5 { Injection.onDeallocation(of: screen!) { ran.withLock { $0.append(index) } } }
    screen = nil
    #expect(ran.withLock { $0 } == [0, 1, 2, 3, 4])
  }

  @Test func theActionRunsOnTheThreadThatReleasesTheObject() {
    let ranOn = LockedState<pthread_t?>(nil)
    let releasedOn = LockedState<pthread_t?>(nil)
    nonisolated(unsafe) var screen: ThreadWatchedScreen? = ThreadWatchedScreen()
    Injection.onDeallocation(of: screen!) { ranOn.withLock { $0 = pthread_self() } }
    let done = DispatchSemaphore(value: 0)
    Thread {
      releasedOn.withLock { $0 = pthread_self() }
      screen = nil
      done.signal()
    }.start()
    done.wait()
    let releaser = releasedOn.withLock { $0 }
    #expect(releaser != nil && ranOn.withLock { $0 } == releaser)
    #expect(releaser != pthread_self())
  }

  @Test func aClassObjectsOwnerNeverDiesSoNothingIsRecorded() {
    let ran = LockedState(false)
    let observation = Injection.onDeallocation(of: TypeOwner.of(WatchedClassObject.self)) {
      ran.withLock { $0 = true }
    }
    observation.cancel()
    #expect(!ran.withLock { $0 })
  }
}
