/** A schedule's limits, pure constants (schema.ts builds its checks from them; the editor reads them). */

/** The most schedules one tool may hold. */
export const MAX_SCHEDULES = 50;

/** The longest name a schedule may carry. */
export const MAX_SCHEDULE_NAME = 200;

/** The longest interval: a year. */
export const MAX_INTERVAL_SECONDS = 366 * 24 * 3600;
