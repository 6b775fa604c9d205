import { DeleteOutlined, HolderOutlined, PlusCircleOutlined } from '@ant-design/icons';
import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import {
  arrayMove,
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { PAGE_MESSAGES, type PageSummary } from '@ev/shared';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Flex, Pagination, Row, Spin, Tag, Tooltip, Typography } from 'antd';
import { type ReactNode, useEffect, useRef, useState } from 'react';
import { useLeaveWarning } from '../../components/form/leave-warning.ts';
import { CellText, EMPTY_TEXT } from '../../components/list/data-table.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { ERROR_TITLE, notify } from '../../lib/notify.ts';
import './guide-manage.css';

/** The chosen list is read with size 99 (document 3, section 9), so no more than 99 can be placed. */
const DISPLAY_MAX = 99;
const LEFT_PAGE_SIZE = 10;
const QUERY_KEY = ['page', 'guide-manage'] as const;
type PageList = { total: number; pages: PageSummary[] };

/** Tutorials not displayed (weight 0), newest first, a page at a time. */
function useHiddenGuides(page: number) {
  return useQuery({
    queryKey: [...QUERY_KEY, 'hidden', page],
    queryFn: ({ signal }) =>
      api<PageList>(`/page?type=guide&weight=0&page=${page}&size=${LEFT_PAGE_SIZE}&sort=id&order=desc`, {
        signal,
      }),
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** The displayed tutorials (weight above 0), in display order. */
function useDisplayedGuides() {
  return useQuery({
    queryKey: [...QUERY_KEY, 'displayed'],
    queryFn: ({ signal }) =>
      api<PageList>(`/page?type=guide&minWeight=0&page=1&size=${DISPLAY_MAX}&sort=weight&order=asc`, {
        signal,
      }),
    staleTime: 0,
  });
}

/** A save that stopped at a refused call: what the server said and how many calls had been stored. */
class OrderSaveError extends Error {
  constructor(
    message: string,
    readonly saved: number,
    readonly total: number,
  ) {
    super(message);
  }
}

/**
 * Writes the order: `PATCH /api/page/{id}` `{ weight }`, one call at a time, the tutorials taken off the
 * display first (weight 0), then the displayed ones 1..n. It stops at the first refusal.
 */
async function saveOrder(changes: { id: number; weight: number }[]) {
  let saved = 0;
  for (const { id, weight } of changes) {
    try {
      await api(`/page/${id}`, { method: 'PATCH', body: { weight } });
    } catch (error) {
      const message = error instanceof ApiError || error instanceof Error ? error.message : String(error);
      throw new OrderSaveError(message, saved, changes.length);
    }
    saved++;
  }
}

const inactiveTag = (
  <Tooltip title="Inactive: not shown in the app even when displayed here">
    <Tag color="default">Inactive</Tag>
  </Tooltip>
);

function Titles({ page }: { page: PageSummary }) {
  return (
    <div className="guide-item-titles">
      <Typography.Text strong>
        <CellText text={page.titleEn} />
      </Typography.Text>
      <Typography.Text type="secondary">
        <CellText text={page.titleTh} />
      </Typography.Text>
    </div>
  );
}

/** A displayed tutorial: its place, the drag handle, its titles and the button that takes it off. */
function DisplayedItem({
  page,
  position,
  disabled,
  onRemove,
}: {
  page: PageSummary;
  position: number;
  disabled: boolean;
  onRemove: () => void;
}) {
  const sortable = useSortable({ id: page.id, disabled });
  return (
    <li
      ref={sortable.setNodeRef}
      className={`guide-item${sortable.isDragging ? ' guide-item-dragging' : ''}`}
      style={{ transform: CSS.Translate.toString(sortable.transform), transition: sortable.transition }}
      data-testid="displayed-guide"
      data-id={page.id}
    >
      <Button
        ref={sortable.setActivatorNodeRef}
        type="text"
        size="small"
        className="guide-item-handle"
        icon={<HolderOutlined />}
        aria-label={`Drag ${page.titleEn}`}
        {...sortable.attributes}
        {...sortable.listeners}
      />
      <span className="guide-item-position">{position}</span>
      <Titles page={page} />
      {!page.active && inactiveTag}
      <Tooltip title="Stop displaying">
        <Button
          type="text"
          danger
          icon={<DeleteOutlined />}
          aria-label={`Remove ${page.titleEn}`}
          disabled={disabled}
          onClick={onRemove}
        />
      </Tooltip>
    </li>
  );
}

function Panel({ title, extra, children }: { title: ReactNode; extra?: ReactNode; children: ReactNode }) {
  return (
    <Card size="small" title={title} extra={extra} style={{ height: '100%' }}>
      {children}
    </Card>
  );
}

function PanelEmpty({ text }: { text: string }) {
  return <Empty className="guide-panel-empty" image={Empty.PRESENTED_IMAGE_SIMPLE} description={text} />;
}

/**
 * Manage Tutorials (/guide-manage): the tutorials not displayed on the left (paged, Add), the displayed ones
 * on the right in order (drag to reorder, Remove). Nothing is stored until Save; leaving before asks first.
 * A save that stops half way reloads both panels, so they show what is stored (docs/decisions.md).
 */
export function GuideManagePage() {
  const queryClient = useQueryClient();
  const [leftPage, setLeftPage] = useState(1);
  const hidden = useHiddenGuides(leftPage);
  const displayed = useDisplayedGuides();
  /** The displayed tutorials as arranged here; null until the first change (the stored order). */
  const [order, setOrder] = useState<PageSummary[] | null>(null);

  const stored = displayed.data?.pages ?? [];
  const shown = order ?? stored;
  const shownIds = new Set(shown.map((page) => page.id));
  /** Taken off the display here, not saved yet: they go back to the left, first. */
  const takenOff = stored.filter((page) => !shownIds.has(page.id));
  const storedIds = new Set(stored.map((page) => page.id));
  // While the panels reload after a save, a tutorial taken off may already be on the left's new page.
  const takenOffIds = new Set(takenOff.map((page) => page.id));
  const left = [
    ...takenOff,
    ...(hidden.data?.pages ?? []).filter((page) => !shownIds.has(page.id) && !takenOffIds.has(page.id)),
  ];
  const dirty =
    order !== null &&
    (order.length !== stored.length || order.some((page, index) => page.id !== stored[index]?.id));
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;
  useLeaveWarning(dirtyRef);

  // Saving moved the last tutorials of the last page away: show the new last page.
  const hiddenTotal = hidden.data?.total ?? 0;
  const hiddenCount = hidden.data?.pages.length ?? 0;
  useEffect(() => {
    if (!hidden.isPlaceholderData && hiddenCount === 0 && hiddenTotal > 0 && leftPage > 1) {
      setLeftPage(Math.ceil(hiddenTotal / LEFT_PAGE_SIZE));
    }
  }, [hidden.isPlaceholderData, hiddenCount, hiddenTotal, leftPage]);

  const reload = async () => {
    await queryClient.invalidateQueries({ queryKey: QUERY_KEY });
    setOrder(null);
  };
  const save = useMutation({
    meta: { silent: true },
    mutationFn: () =>
      saveOrder([
        ...takenOff.map((page) => ({ id: page.id, weight: 0 })),
        ...shown.map((page, index) => ({ id: page.id, weight: index + 1 })),
      ]),
    onSuccess: async () => {
      await reload();
      notify('success', PAGE_MESSAGES.orderSaved);
    },
    onError: async (error) => {
      const saved = error instanceof OrderSaveError ? error.saved : 0;
      const total = error instanceof OrderSaveError ? error.total : 0;
      notify(
        'error',
        ERROR_TITLE,
        `The order was not saved in full: ${error.message}. ${saved} of ${total} changes were saved; the panels now show the order as stored.`,
      );
      await reload();
    },
  });

  const add = (page: PageSummary) => setOrder([...shown, page]);
  const remove = (page: PageSummary) => setOrder(shown.filter((item) => item.id !== page.id));
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = shown.findIndex((page) => page.id === active.id);
    const to = shown.findIndex((page) => page.id === over.id);
    if (from >= 0 && to >= 0) setOrder(arrayMove(shown, from, to));
  };
  const titleOf = (id: number | string) => shown.find((page) => page.id === id)?.titleEn ?? String(id);
  const placeOf = (id: number | string) => shown.findIndex((page) => page.id === id) + 1;
  const full = shown.length >= DISPLAY_MAX;

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          Manage Tutorials
        </Typography.Title>
      }
      extra={
        <Button
          type="primary"
          onClick={() => save.mutate()}
          loading={save.isPending}
          disabled={!dirty || save.isPending}
        >
          Save
        </Button>
      }
    >
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={12}>
          <Panel title="Tutorials not displayed">
            <Spin spinning={hidden.isFetching && !hidden.isPending}>
              {hidden.isPending ? (
                <Flex justify="center" style={{ padding: 24 }}>
                  <Spin />
                </Flex>
              ) : left.length === 0 ? (
                <PanelEmpty text={EMPTY_TEXT} />
              ) : (
                <ul className="guide-panel-list" aria-label="Tutorials not displayed">
                  {left.map((page) => (
                    <li
                      key={page.id}
                      className={`guide-item${storedIds.has(page.id) ? ' guide-item-unsaved' : ''}`}
                      data-testid="hidden-guide"
                      data-id={page.id}
                    >
                      <Titles page={page} />
                      {!page.active && inactiveTag}
                      <Tooltip title={full ? `At most ${DISPLAY_MAX} tutorials are displayed` : 'Display'}>
                        <Button
                          type="text"
                          icon={<PlusCircleOutlined />}
                          aria-label={`Add ${page.titleEn}`}
                          disabled={full || save.isPending}
                          onClick={() => add(page)}
                        />
                      </Tooltip>
                    </li>
                  ))}
                </ul>
              )}
            </Spin>
            <Flex justify="end" style={{ marginTop: 12 }}>
              <Pagination
                size="small"
                current={leftPage}
                pageSize={LEFT_PAGE_SIZE}
                total={hiddenTotal}
                showSizeChanger={false}
                hideOnSinglePage
                onChange={setLeftPage}
              />
            </Flex>
          </Panel>
        </Col>
        <Col xs={24} lg={12}>
          <Panel title={displayed.isPending ? 'Display Tutorials' : `Display Tutorials (${shown.length})`}>
            {displayed.isPending ? (
              <Flex justify="center" style={{ padding: 24 }}>
                <Spin />
              </Flex>
            ) : shown.length === 0 ? (
              <PanelEmpty text="No tutorial is displayed: add them from the left." />
            ) : (
              <DndContext
                sensors={sensors}
                collisionDetection={closestCenter}
                onDragEnd={onDragEnd}
                accessibility={{
                  announcements: {
                    onDragStart: ({ active }) =>
                      `Picked up ${titleOf(active.id)}, place ${placeOf(active.id)}.`,
                    onDragOver: ({ active, over }) =>
                      over ? `${titleOf(active.id)} is over place ${placeOf(over.id)}.` : undefined,
                    onDragEnd: ({ active, over }) =>
                      over ? `${titleOf(active.id)} dropped at place ${placeOf(over.id)}.` : undefined,
                    onDragCancel: ({ active }) => `Moving ${titleOf(active.id)} was cancelled.`,
                  },
                }}
              >
                <SortableContext items={shown.map((page) => page.id)} strategy={verticalListSortingStrategy}>
                  <ol className="guide-panel-list" aria-label="Display Tutorials">
                    {shown.map((page, index) => (
                      <DisplayedItem
                        key={page.id}
                        page={page}
                        position={index + 1}
                        disabled={save.isPending}
                        onRemove={() => remove(page)}
                      />
                    ))}
                  </ol>
                </SortableContext>
              </DndContext>
            )}
          </Panel>
        </Col>
      </Row>
    </Card>
  );
}
