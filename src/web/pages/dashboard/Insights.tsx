import { AlertTriangle, ArrowRight, Clock, TrendingUp } from 'lucide-react';
import { Link } from 'react-router';
import type { Dashboard, Insight } from '../../../shared/dashboard.ts';
import { Card, CardHeader } from '../../components/ui/Card.tsx';
import { insightText } from './figures.ts';

// The insights of GET /dashboard: plain notes from fixed rules (docs/dashboard.md), each
// with its numbers and a link to what it is about.

const ICONS: Record<Insight['kind'], typeof Clock> = {
  spend_change: TrendingUp,
  late_payer: Clock,
  unusual_transaction: AlertTriangle,
};

export const Insights = ({ data }: { data: Dashboard }) => (
  <Card className="overflow-hidden">
    <CardHeader title="Insights" description="Noticed in your books, by fixed rules" />
    {data.insights.length === 0 ? (
      <p className="px-5 py-6 text-sm text-slate-500 dark:text-slate-400">
        Nothing stands out: no large change of spending month over month, no customer paying later than usual,
        no expense far above its usual size.
      </p>
    ) : (
      <ul className="grid sm:grid-cols-2 xl:grid-cols-3">
        {data.insights.map((insight) => {
          const { title, detail } = insightText(insight, data.currency);
          const Icon = ICONS[insight.kind];
          return (
            <li
              key={`${insight.kind}-${insight.link}`}
              className="border-t border-slate-100 dark:border-slate-800"
            >
              <Link
                to={insight.link}
                className="group flex h-full min-h-11 gap-3 px-5 py-4 hover:bg-slate-50 dark:hover:bg-slate-800/60"
              >
                <Icon
                  className="mt-0.5 h-5 w-5 shrink-0 text-amber-600 dark:text-amber-400"
                  aria-hidden="true"
                />
                <span className="min-w-0">
                  <span className="flex items-center gap-1 font-medium text-slate-900 dark:text-white">
                    {title}
                    <ArrowRight
                      className="h-4 w-4 shrink-0 transition-transform group-hover:translate-x-0.5"
                      aria-hidden="true"
                    />
                  </span>
                  <span className="mt-1 block text-sm text-slate-600 dark:text-slate-300">{detail}</span>
                </span>
              </Link>
            </li>
          );
        })}
      </ul>
    )}
  </Card>
);
