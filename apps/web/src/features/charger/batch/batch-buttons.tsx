import { HistoryOutlined } from '@ant-design/icons';
import type { BatchKind } from '@ev/shared';
import { Button } from 'antd';
import { useState } from 'react';
import { BATCH_TITLES } from '../../../components/batch/use-batch-run.ts';
import { BatchHistoryModal } from './batch-history-modal.tsx';
import { BatchModal } from './batch-modal.tsx';

/** The charger list's admin buttons: Hard Reset All, Config All, Send Local List All and their history. */
export function BatchButtons() {
  const [open, setOpen] = useState<BatchKind | 'history' | null>(null);
  const close = () => setOpen(null);
  return (
    <>
      <Button danger onClick={() => setOpen('hard-reset')}>
        {BATCH_TITLES['hard-reset']}
      </Button>
      <Button onClick={() => setOpen('config')}>{BATCH_TITLES.config}</Button>
      <Button onClick={() => setOpen('local-list')}>{BATCH_TITLES['local-list']}</Button>
      <Button icon={<HistoryOutlined />} onClick={() => setOpen('history')}>
        Batch History
      </Button>
      {open === 'history' && <BatchHistoryModal onClose={close} />}
      {open !== null && open !== 'history' && <BatchModal key={open} kind={open} onClose={close} />}
    </>
  );
}
