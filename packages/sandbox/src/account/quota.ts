// Quota accounting: the total in force comes from the settings, the usage is the account's state.
// "Today" is the UTC day of the simulated clock; today_used starts again at 00:00 UTC.

import { ItemReject } from './envelope.js';
import { utcDay } from './time.js';
import type { AccountSettings } from './types.js';

export class Quota {
  used = 0;
  todayUsed = 0;
  today = 0;

  constructor(
    private readonly settings: () => AccountSettings,
    private readonly now: () => number,
  ) {}

  #roll(): void {
    const day = utcDay(this.now());
    if (day !== this.today) {
      this.today = day;
      this.todayUsed = 0;
    }
  }

  remain(): number {
    return Math.max(0, this.settings().quotaTotal - this.used);
  }

  /**
   * Throw the reason `units` cannot be charged now, if any. The exhausted quota (-18019908) is checked
   * before the daily cap (-18019907): the lasting condition is the more useful one to report.
   */
  check(units: number): void {
    this.#roll();
    if (this.used + units > this.settings().quotaTotal) throw new ItemReject(-18019908);
    const cap = this.settings().maxTrackDaily;
    if (cap > 0 && this.todayUsed + units > cap) throw new ItemReject(-18019907);
  }

  charge(units: number): void {
    this.check(units);
    this.used += units;
    this.todayUsed += units;
  }

  /** Charge what can be charged, without refusing (charges that fall due later, like translation). */
  tryCharge(units: number): boolean {
    try {
      this.charge(units);
      return true;
    } catch {
      return false;
    }
  }

  record(): Record<string, number> {
    this.#roll();
    const s = this.settings();
    return {
      quota_total: s.quotaTotal,
      quota_used: this.used,
      quota_remain: this.remain(),
      today_used: this.todayUsed,
      max_track_daily: s.maxTrackDaily,
      // E-mail notifications are not emulated: no free e-mail quota is granted or used.
      free_email_quota: 0,
      free_email_quotaused: 0,
    };
  }
}
