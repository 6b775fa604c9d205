import { BATCH_RESULTS, type BatchResult } from '@ev/shared';
import { Flex, Tag } from 'antd';

const RESULT_COLORS: Record<BatchResult, string | undefined> = {
  Accepted: 'green',
  Rejected: 'red',
  NotSupported: 'orange',
  Offline: undefined,
  Timeout: 'gold',
};

/** How many chargers gave each result: every result, zero included, so runs compare at a glance. */
export function ResultTags({ counts }: { counts: Partial<Record<BatchResult, number>> }) {
  return (
    <Flex wrap gap={4}>
      {BATCH_RESULTS.map((result) => (
        <Tag key={result} color={RESULT_COLORS[result]} data-result={result}>
          {result}: {counts[result] ?? 0}
        </Tag>
      ))}
    </Flex>
  );
}
