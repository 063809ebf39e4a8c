import type { CaInfo, FacaInfo, FaInfo } from '@linewatch/contracts/faca';
import { needsNgReason } from '@linewatch/contracts/rules/ca-statuses';
import type { ReactNode } from 'react';
import { formatDateTime } from '../../../shared/format.ts';
import { MediaStrip } from './media-uploader.tsx';
import { Card, InfoRow } from './page-frame.tsx';
import { CaStatusTag, FacaStatusTags } from './status-tags.tsx';

/** 1 时 5 分 3 秒: each unit set apart from the next number. */
const duration = (q: FacaInfo) => `${q.hour} 时 ${q.minute} 分 ${q.second} 秒`;

/** A question as the FACA and task pages show it. */
export const QuestionInfo = ({ q, action }: { q: FacaInfo; action?: ReactNode }) => (
  <Card testId="question-info">
    <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
      <strong>{q.snCode}</strong>
      {action}
    </div>
    <FacaStatusTags flags={q.facaStatus} />
    <InfoRow label="工艺类型">{q.workmanship}</InfoRow>
    <InfoRow label="报警次数">{q.count}</InfoRow>
    <InfoRow label="报警内容">{q.warningContent}</InfoRow>
    <InfoRow label="现场描述">{q.facaDescription}</InfoRow>
    <InfoRow label="报警时长">{duration(q)}</InfoRow>
    <InfoRow label="影响参数">{q.influenceParameters}</InfoRow>
    <InfoRow label="数据来源">{q.dataFrom}</InfoRow>
    <InfoRow label="更新">
      {q.updateUser} {formatDateTime(q.updateTime)}
    </InfoRow>
    <MediaStrip items={[...q.picList, ...q.videoList]} />
  </Card>
);

export const FaInfoView = ({ fa, action }: { fa: FaInfo; action?: ReactNode }) => (
  <>
    <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
      <strong>FA{fa.faNum}</strong>
      {action}
    </div>
    <InfoRow label="故障分析">{fa.faDescription}</InfoRow>
    <MediaStrip items={[...fa.faPicList, ...fa.faVideoList]} />
  </>
);

export const CaInfoView = ({ ca, action }: { ca: CaInfo; action?: ReactNode }) => (
  <div data-testid="ca-info">
    <div style={{ display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}>
      <span>
        <strong>CA{ca.caNum}</strong> <CaStatusTag status={ca.caStatus} overdue={ca.overdue} />
      </span>
      {action}
    </div>
    <InfoRow label="纠正措施">{ca.caDescription}</InfoRow>
    <InfoRow label="处理人">{ca.handlerDisplay || '—'}</InfoRow>
    <InfoRow label="纳期">{ca.resolvingTime}</InfoRow>
    {needsNgReason(ca.caStatus) ? <InfoRow label="NG原因">{ca.ngReason}</InfoRow> : null}
    <MediaStrip items={[...ca.caPicList, ...ca.caVideoList, ...ca.resultPicList]} />
  </div>
);
