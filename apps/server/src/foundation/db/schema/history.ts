/** The maintenance manual's description of an alarm code (migration 007). */
export interface AlarmManualsTable {
  code: string;
  artificial_des: string;
}
