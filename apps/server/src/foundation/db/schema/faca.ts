import type { ColumnType, Generated } from 'kysely';

type DefaultNow = ColumnType<Date, Date | string | undefined, Date | string>;
type Ids = ColumnType<string[], string[] | undefined, string[]>;

export interface FacaOptionTable {
  id: Generated<number>;
  name: string;
}

export interface MediaTable {
  id: string;
  kind: 'pic' | 'video';
  mime: string;
  ext: string;
  size: number;
  has_thumb: ColumnType<boolean, boolean | undefined, boolean>;
  owner_id: number;
  faca_id: number | null;
  created_at: DefaultNow;
}

export interface FacaQuestionsTable {
  id: Generated<number>;
  sn_code: string;
  workmanship: string;
  count: number;
  warning_content: string;
  faca_description: string;
  time_length: number;
  influence_parameters: string;
  data_from: string;
  pic_ids: Ids;
  video_ids: Ids;
  update_user: string;
  update_time: DefaultNow;
}

export interface FacaFasTable {
  id: Generated<number>;
  faca_id: number;
  fa_num: number;
  fa_description: string;
  pic_ids: Ids;
  video_ids: Ids;
  update_user: string;
  update_time: DefaultNow;
}

export interface FacaCasTable {
  id: Generated<number>;
  faca_id: number;
  fa_id: number;
  seq: number;
  ca_description: string;
  handler_ids: ColumnType<number[], number[] | undefined, number[]>;
  /** 'YYYY-MM-DD' (text: compares as a date, reads the same on PGlite and pg). */
  resolving_time: ColumnType<string, string, string>;
  status: ColumnType<number, number | undefined, number>;
  ng_reason: ColumnType<string, string | undefined, string>;
  pic_ids: Ids;
  video_ids: Ids;
  result_pic_ids: Ids;
  /** The assigner: may change the handlers (null: created before it was kept, or user gone). */
  created_by: ColumnType<number | null, number | null | undefined, number | null>;
  update_user: string;
  update_time: DefaultNow;
}
