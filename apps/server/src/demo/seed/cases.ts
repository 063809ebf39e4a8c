import { sql } from 'kysely';
import type { Executor } from '../../notifications/service.ts';

/**
 * The guidance videos of the demo's troubleshooting cases (migration 009 seeds the cases with
 * pictures only). Served like the cases' pictures, as static files of the web app
 * (apps/web/public/cases/): /faultAlarm is public, and a video is part of the public case.
 */
const CASE_VIDEOS = [
  { warningCode: 'E518', shooting: 0, videoUrl: '/cases/e518-guide.mp4' },
] as const;

export const seedCaseVideos = async (tx: Executor) => {
  for (const v of CASE_VIDEOS) {
    await tx
      .updateTable('failure_cases')
      .set({
        shootings: sql`jsonb_set(shootings, ${sql.val(`{${v.shooting},videoUrl}`)}::text[], to_jsonb(${v.videoUrl}::text))`,
      })
      .where('warning_code', '=', v.warningCode)
      .execute();
  }
};
