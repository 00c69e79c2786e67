import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../test/render';
import { CHART_UNAVAILABLE } from './charts';
import { PeriodReport } from './period-report';

// The charts' own chunk cannot be loaded: the connection dropped, or a newer release replaced it.
vi.mock('@mantine/charts', () => {
  throw new Error('Failed to fetch dynamically imported module');
});

const rows = [
  { date: '2026-11-23', present: 50, absent: 10, total: 60 },
  { date: '2026-11-24', present: 45, absent: 15, total: 60 },
];

describe('a chart whose code cannot be loaded', () => {
  it('keeps its space with a word, and the report beside it stays', async () => {
    // React reports the error the chart's boundary caught.
    const reported = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderWithProviders(<PeriodReport period="weekly" chart="pie" rows={rows} today="2026-11-26" />);
    expect(await screen.findByText(CHART_UNAVAILABLE)).toBeInTheDocument();
    // The figures the chart would draw are still in the report's text and table.
    expect(screen.getByRole('heading', { name: 'Weekly Report' })).toBeInTheDocument();
    expect(screen.getByRole('table')).toHaveTextContent('50');
    expect(reported).toHaveBeenCalled();
    reported.mockRestore();
  });
});
