/**
 * The pages docs/design.md section 7 holds to Lighthouse ≥ 95; the history is of a demo machine with
 * alarms every day (apps/server/src/demo/seed.ts).
 */
export const LIGHTHOUSE_PAGES = ['/deviceList', '/map', '/deviceHistory?snCode=LW-S1-002'];
