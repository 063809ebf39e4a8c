import { randomBytes } from 'node:crypto';
import type { Linewatch } from '../app.ts';
import type { Db } from '../foundation/db/database.ts';
import { hashSecret } from '../foundation/shared/secrets.ts';

/** A name no other test (or test run, on a shared PostgreSQL or broker) will pick. */
const unique = (prefix: string) => `${prefix}${randomBytes(5).toString('hex')}`;

export interface TestLine {
  id: number;
  name: string;
}

export interface TestGroup {
  id: number;
  lineId: number;
  name: string;
}

export interface TestUser {
  id: number;
  psnCode: string;
  password: string;
  name: string;
  nickName: string;
}

export interface TestGateway {
  id: string;
  secret: string;
}

interface DeviceSpec {
  line: TestLine;
  group?: TestGroup | undefined;
  gateway?: TestGateway | undefined;
  sn?: string;
  deviceName?: string;
  nickSnCode?: string;
  produceTargetNumber?: number;
  ppmTarget?: number;
  maxPpm?: number | null;
}

/**
 * Test data written through the server's own database, then made known to the running server
 * (device registry, ingest watermarks, gateway presence) as a bind or the demo seed would.
 * Pass a bare Db to seed a database no server has open.
 */
export const factories = (target: Linewatch | Db) => {
  const linewatch = 'database' in target ? target : null;
  const db: Db = linewatch ? linewatch.database.db : (target as Db);

  const createLine = async (name = unique('产线')): Promise<TestLine> => {
    const row = await db
      .insertInto('production_lines')
      .values({ name })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, name };
  };

  const createGroup = async (line: TestLine, name = unique('工序')): Promise<TestGroup> => {
    const row = await db
      .insertInto('product_groups')
      .values({ line_id: line.id, name })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, lineId: line.id, name };
  };

  const grantLines = async (user: { id: number }, lines: TestLine[]) => {
    if (lines.length === 0) return;
    await db
      .insertInto('user_lines')
      .values(lines.map((l) => ({ user_id: user.id, line_id: l.id })))
      .execute();
  };

  const createUser = async (
    spec: {
      psnCode?: string;
      password?: string;
      name?: string;
      nickName?: string;
      isAdmin?: boolean;
      lines?: TestLine[];
    } = {},
  ): Promise<TestUser> => {
    const psnCode = spec.psnCode ?? unique('u');
    const password = spec.password ?? `Pw-${randomBytes(6).toString('hex')}`;
    const name = spec.name ?? `用户${psnCode}`;
    const nickName = spec.nickName ?? '';
    const row = await db
      .insertInto('users')
      .values({
        psn_code: psnCode,
        name,
        nick_name: nickName,
        password_hash: await hashSecret(password),
        is_admin: spec.isAdmin ?? false,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const user = { id: row.id, psnCode, password, name, nickName };
    await grantLines(user, spec.lines ?? []);
    return user;
  };

  const createGateway = async (
    spec: { id?: string; secret?: string } = {},
  ): Promise<TestGateway> => {
    const id = spec.id ?? unique('GW');
    const secret = spec.secret ?? randomBytes(16).toString('base64url');
    await db
      .insertInto('gateways')
      .values({ id, password_hash: await hashSecret(secret) })
      .execute();
    linewatch?.ingestor.registerGateway(id);
    linewatch?.presence.register(id);
    return { id, secret };
  };

  const refreshDevices = async () => linewatch?.registry.reload();

  /** Several machines in one insert and one registry reload. */
  const createDevices = async (count: number, spec: DeviceSpec): Promise<string[]> => {
    // A batch shares a prefix (SN…-000, SN…-001, …) so a search can find the batch.
    const prefix = spec.sn ?? unique('SN');
    const sns = Array.from({ length: count }, (_, i) =>
      count === 1 && spec.sn ? spec.sn : `${prefix}-${String(i).padStart(3, '0')}`,
    );
    await db
      .insertInto('devices')
      .values(
        sns.map((sn) => ({
          sn_code: sn,
          device_name: spec.deviceName ?? `设备${sn}`,
          nick_sn_code: spec.nickSnCode ?? '',
          line_id: spec.line.id,
          group_id: spec.group?.id ?? null,
          gateway_id: spec.gateway?.id ?? null,
          produce_target_number: spec.produceTargetNumber ?? 0,
          ppm_target: spec.ppmTarget ?? 0,
          max_ppm: spec.maxPpm ?? null,
        })),
      )
      .execute();
    await refreshDevices();
    return sns;
  };

  const createDevice = async (spec: DeviceSpec): Promise<string> =>
    (await createDevices(1, { ...spec, sn: spec.sn ?? unique('SN') }))[0]!;

  const follow = async (user: { id: number }, sns: string[]) => {
    await db
      .insertInto('user_follows')
      .values(sns.map((sn) => ({ user_id: user.id, sn_code: sn })))
      .execute();
  };

  /**
   * An alarm as every screen says it: its code and the one dictionary's description
   * (alarm_definitions), never a fixture's own words for the code.
   */
  const alarmText = async (code: string): Promise<string> => {
    const definition = await db
      .selectFrom('alarm_definitions')
      .select('description')
      .where('code', '=', code)
      .executeTakeFirstOrThrow();
    return `${code} ${definition.description}`;
  };

  return {
    alarmText,
    createLine,
    createGroup,
    createUser,
    grantLines,
    createGateway,
    createDevice,
    createDevices,
    follow,
  };
};
