import type { MachineCard as Machine } from '@linewatch/contracts/devices';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { buildMachineCard } from '../../../testing/builders.ts';
import { MachineCard } from './machine-card.tsx';

/** The shared builder with the figures this test's colour and text checks are written against. */
const buildMachine = (overrides: Partial<Machine> = {}): Machine =>
  buildMachineCard({
    snCode: 'SN-001',
    produceGroup: 'G1',
    produceNumber: 1000,
    produceTargetNumber: 1000,
    produceTargetDue: 1000,
    ngNumber: 5,
    ngTargetNumber: 10,
    ngTargetDue: 10,
    ppm: 12,
    maxPPM: 15,
    ppmTarget: 10,
    superiorityRate: 97,
    superiorityRateTarget: 95,
    yield: 99.5,
    useRate: 85,
    ...overrides,
  });

const renderCard = (machine: Machine, onPress = vi.fn()) => {
  render(<MachineCard machine={machine} selecting={false} selected={false} onPress={onPress} />);
  return screen.getByRole('article');
};

/** A figure by its name; data-ok is the colour it is drawn in, which has no accessible form. */
const metric = (card: HTMLElement, name: string) => within(card).getByRole('group', { name });

describe('machine card', () => {
  it('shows — in neutral, not a red 0, for a machine without a gateway that counted nothing', () => {
    const card = renderCard(
      buildMachine({
        iot: 0,
        produceNumber: 0,
        ppm: null,
        superiorityRate: null,
        yield: null,
        useRate: null,
      }),
    );
    const produced = metric(card, '产量');
    expect(produced.dataset.ok).toBe('none');
    expect(produced.textContent).toContain('—/');
    expect(produced.textContent).not.toMatch(/产量.*0\//);
  });

  it('colours every figure that meets its target green', () => {
    const card = renderCard(buildMachine());
    for (const name of ['产量', 'PPM', '优率', '良率', '稼动率']) {
      expect(metric(card, name).dataset.ok).toBe('true');
    }
  });

  it('colours figures below target red, and rates equal to target red (they must exceed it)', () => {
    const card = renderCard(
      buildMachine({ produceNumber: 999, ppm: 9.5, superiorityRate: 95, yield: 98, useRate: 79 }),
    );
    for (const name of ['产量', 'PPM', '优率', '良率', '稼动率']) {
      expect(metric(card, name).dataset.ok).toBe('false');
    }
  });

  it('shows no data as "—" in a neutral colour, not as 0 % in red', () => {
    const card = renderCard(
      buildMachine({
        produceNumber: 0,
        ppm: null,
        superiorityRate: null,
        yield: null,
        useRate: null,
      }),
    );
    for (const name of ['PPM', '优率', '良率', '稼动率']) {
      expect(metric(card, name).dataset.ok).toBe('none');
      expect(metric(card, name).textContent).toMatch(/^\D+—\//);
    }
  });

  it('compares today’s count with the target due so far, and says so', () => {
    const card = renderCard(
      buildMachine({
        produceNumber: 300,
        produceTargetNumber: 1000,
        produceTargetDue: 250,
        targetPartial: true,
      }),
    );
    expect(metric(card, '产量').dataset.ok).toBe('true');
    expect(metric(card, '产量').textContent).toContain('300/250');
    expect(within(metric(card, '产量')).getByText('目标(至当前)')).toBeTruthy();
  });

  it('shows rates as percent against their targets', () => {
    const card = renderCard(buildMachine({ yield: 99.456, yieldTarget: 98 }));
    expect(metric(card, '良率').textContent).toContain('99.46%/98%');
  });

  it('names the machine by its nickname when it has one', () => {
    renderCard(buildMachine({ nickSnCode: '一号机' }));
    expect(screen.getByRole('article', { name: '一号机' })).toBeTruthy();
  });

  it('falls back to the SN code for a blank nickname', () => {
    renderCard(buildMachine({ nickSnCode: '  ' }));
    expect(screen.getByRole('article', { name: 'SN-001' })).toBeTruthy();
  });

  it.each([
    ['running', '运行'],
    ['standBy', '待机'],
    ['error', '故障'],
    ['offLine', '离线'],
  ] as const)('labels status %s as %s', (deviceStatus, label) => {
    expect(within(renderCard(buildMachine({ deviceStatus }))).getByText(label)).toBeTruthy();
  });

  it.each([
    [0, '未绑定网关'],
    [1, '网关在线'],
    [2, '网关离线'],
  ] as const)('labels gateway state %i as %s', (iot, label) => {
    expect(within(renderCard(buildMachine({ iot }))).getByText(label)).toBeTruthy();
  });

  it('tags subscribed machines', () => {
    expect(within(renderCard(buildMachine({ isCollect: true }))).getByText('已订阅')).toBeTruthy();
  });
});
