import { caStatusLabels, caStatusTones } from '@linewatch/contracts/rules/ca-statuses';
import { facaStatusLabels, facaStatusTones } from '@linewatch/contracts/rules/question-statuses';
import { Tag } from 'antd-mobile';

/** A question's status flags, several at once. */
export const FacaStatusTags = ({ flags }: { flags: number[] }) => (
  <span data-testid="faca-flags" style={{ display: 'inline-flex', gap: 4, flexWrap: 'wrap' }}>
    {flags.map((f) => (
      <Tag key={f} color={facaStatusTones[f]} fill="outline" data-flag={f}>
        {facaStatusLabels[f]}
      </Tag>
    ))}
  </span>
);

/** CA status / treatment: OK green, NG yellow, pending grey (rules/ca-statuses.ts). */
export const CaStatusTag = ({ status, overdue }: { status: number; overdue?: boolean }) => (
  <span style={{ display: 'inline-flex', gap: 4 }} data-testid="ca-status" data-status={status}>
    <Tag color={caStatusTones[status] ?? 'default'}>{caStatusLabels[status]}</Tag>
    {overdue ? <Tag color="danger">逾期</Tag> : null}
  </span>
);
