// The spread of a budget's starts through its window, shared by the pacers of a process (pacer.ts) and of a
// machine (budget-window.ts): at 3 a second, a start every third of the window rather than three at once and then
// a wait for the rest of it. Bursts put three requests on the wire, and three answers on the event loop, at once:
// on a busy machine the last of a burst leaves late, and its lateness holds back the start one window on.

/**
 * When a start taken at `t` was due, for the spacing of the next: a spacing after the one before was due, so that
 * starts spread evenly through the window rather than leave in bursts of `perSecond` and wait out the rest of it;
 * and a start that came late (the event loop stalled, the machine was busy, the window held it) passes on no more
 * than half a spacing of its lateness: the next may follow it after half a spacing, catching up with the
 * schedule, so that a delay costs what it lasted rather than moving every later start. After an idle spell (no
 * start due for a while) the next start is due at once.
 */
export function spacedAfter(due: number | undefined, t: number, spacing: number): number {
  return Math.max(due === undefined ? t : due + spacing, t - spacing / 2);
}
