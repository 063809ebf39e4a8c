import type { AuditRecord } from '../foundation/shared/audit.ts';

/** A gateway's entry in the audit log (shared/audit.ts): who did what to it, and to which machine. */
export interface GatewayAuditEntry {
  userId: number | null;
  userName: string;
  action: 'bind' | 'unbind' | 'register' | 'rotate';
  gatewayId: string;
  snCode?: string;
  /** What the binding said (PLC connection and model, the gateway's addresses). */
  binding?: { plcIp: string; plcPort: number; unitId: number; plcModel: string; iotIp: string };
}

/**
 * The entry as the log keeps it; gateways' repository writes those of registering and rotating,
 * machines' those of binding (with the binding, docs/architecture.md decision 61).
 */
export const gatewayAudit = (entry: GatewayAuditEntry): AuditRecord => ({
  actorId: entry.userId,
  actorName: entry.userName,
  action: `gateway.${entry.action}`,
  target: `gateway:${entry.gatewayId}`,
  after: entry.snCode || entry.binding ? { snCode: entry.snCode, ...entry.binding } : undefined,
});
