import { caseMessages, type FailureCase } from '@linewatch/contracts/cases';
import { ReplyCode } from '@linewatch/contracts/envelope';
import type { Db } from '../foundation/db/database.ts';
import { DomainError } from '../foundation/http/envelope.ts';
import type { CasesRepository } from './repository.ts';

export const createCasesService = (repo: CasesRepository) => ({
  async get(id: number): Promise<FailureCase> {
    const found = await repo.find(id);
    if (!found) throw new DomainError(ReplyCode.notFound, caseMessages.notFound);
    return found;
  },

  /**
   * The troubleshooting case of each alarm code that has one, for an alarm message's link; read in
   * `executor` when given (the transaction that writes the message).
   */
  caseIds: (executor?: Db): Promise<ReadonlyMap<string, number>> => repo.idsByCode(executor),

  /** The troubleshooting case of an alarm code; null when none. */
  async caseIdOf(code: string): Promise<number | null> {
    return (await repo.idsByCode()).get(code) ?? null;
  },
});

export type CasesService = ReturnType<typeof createCasesService>;
