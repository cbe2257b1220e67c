import {
  Award,
  Brain,
  Briefcase,
  Calculator,
  ChartColumn,
  Clock,
  CreditCard,
  Factory,
  FileText,
  Globe,
  Headphones,
  Infinity as InfinityIcon,
  Lock,
  type LucideIcon,
  Plug,
  Server,
  ShieldCheck,
  ShoppingCart,
  Star,
  Users,
  Zap,
} from 'lucide-react';
import type { SectionCopy } from '../../components/site/Marketing.tsx';

// The landing page's marketing content (SPEC section 1: claims, feature blocks, segments and
// compliance). Content, not rules.

/** The words over each section of the page. */
export const SECTION_COPY = {
  features: {
    eyebrow: 'Features',
    title: 'Everything your finance team needs, in one place',
    intro:
      'From the first invoice to the year-end report, Kontor keeps every number connected to a balanced ledger.',
  },
  demo: {
    eyebrow: 'Interactive demo',
    title: 'Your financial command center',
    intro:
      'Accounting, invoices, payroll, inventory and analytics side by side. Click around — it runs on sample figures. Payroll, CRM, inventory, projects, HR and supply chain are a preview: they are not in the Kontor app yet.',
  },
  testimonials: {
    eyebrow: 'Customers',
    title: 'Loved by owners and their accountants',
    intro: 'Rated 4.9 out of 5 by teams who moved their books to Kontor.',
  },
  segments: {
    eyebrow: 'Built for your business',
    title: 'One platform, shaped to how you make money',
    intro: 'Kontor adapts its reports and workflows to the way your industry runs.',
  },
} satisfies Record<string, SectionCopy>;

export const STATS: { value: string; label: string }[] = [
  { value: '10,000+', label: 'businesses trust Kontor' },
  { value: '4.9/5', label: 'average customer rating' },
  { value: '15+ hrs', label: 'saved every week' },
  { value: '5 min', label: 'to set up' },
];

export const CLAIMS: { icon: LucideIcon; label: string }[] = [
  { icon: Lock, label: 'Bank-grade security' },
  { icon: Clock, label: 'Setup in 5 minutes' },
  { icon: Headphones, label: '24/7 support' },
  { icon: Star, label: '4.9/5 rating' },
];

export type Feature = { icon: LucideIcon; title: string; body: string; points: string[] };

export const FEATURES: Feature[] = [
  {
    icon: ChartColumn,
    title: 'Real-time analytics',
    body: 'Cash, revenue and spend update the moment a transaction lands — no waiting for month-end.',
    points: ['Live dashboards', 'Cash-flow forecasts'],
  },
  {
    icon: FileText,
    title: 'Smart invoicing',
    body: 'Branded invoices in seconds, automatic reminders, and payments matched back for you.',
    points: ['Recurring invoices', 'Automatic reminders'],
  },
  {
    icon: Users,
    title: 'Team collaboration',
    body: 'Bring in your accountant and team with role-based permissions and approval workflows.',
    points: ['Role-based permissions', 'Approval workflows'],
  },
  {
    icon: Brain,
    title: 'AI-powered analytics',
    body: 'Spot unusual spend, late payers and runway risks before they become problems.',
    points: ['Anomaly alerts', 'Predictive insights'],
  },
  {
    icon: ShieldCheck,
    title: 'Enterprise security',
    body: 'Encryption in transit and at rest, two-factor sign-in and a full audit trail of every change.',
    points: ['Two-factor authentication', 'Complete audit log'],
  },
  {
    icon: CreditCard,
    title: 'Payment processing',
    body: 'Get paid by card, bank transfer and wallets with instant settlement and fraud protection.',
    points: ['35+ payment methods', 'Instant settlement', 'Fraud protection'],
  },
  {
    icon: Calculator,
    title: 'Double-entry accounting automation',
    body: 'Every document posts to a balanced ledger, so your books are always ready for your accountant.',
    points: ['Auto-categorization', 'Bank reconciliation', 'Tax reports'],
  },
  {
    icon: InfinityIcon,
    title: 'Unlimited users',
    body: 'Invite your whole team on Enterprise — no per-seat surprises as you grow.',
    points: ['No per-seat fees', 'Custom roles'],
  },
  {
    icon: Plug,
    title: 'API and integrations',
    body: 'Connect the tools you already use, or build your own with our REST API and webhooks.',
    points: ['500+ integrations', 'Webhooks'],
  },
];

export type Testimonial = { quote: string; name: string; role: string; company: string; initials: string };

// Sample marketing content (SPEC section 1): illustrative customer stories.
export const TESTIMONIALS: Testimonial[] = [
  {
    quote:
      'We closed our books in two days instead of two weeks. Reconciliation that used to eat every Friday now just happens.',
    name: 'Elena Duarte',
    role: 'CFO',
    company: 'Brightline Software',
    initials: 'ED',
  },
  {
    quote:
      'Invoices go out the minute an order ships and payments match themselves. Our days-sales-outstanding dropped by a third.',
    name: 'Marcus Lee',
    role: 'Founder',
    company: 'Harbor & Pine Goods',
    initials: 'ML',
  },
  {
    quote:
      'Our accountant logs straight in with her own role. Approvals, audit trail, tax reports — it all lives in one place now.',
    name: 'Aisha Rahman',
    role: 'Managing Partner',
    company: 'Rahman Advisory',
    initials: 'AR',
  },
];

export const BUSINESS_TYPES: { icon: LucideIcon; title: string; body: string }[] = [
  {
    icon: Zap,
    title: 'Tech and SaaS',
    body: 'Subscription revenue, deferred income and runway at a glance.',
  },
  {
    icon: ShoppingCart,
    title: 'E-commerce',
    body: 'Sales channels, payouts and stock value reconciled every day.',
  },
  {
    icon: Briefcase,
    title: 'Professional services',
    body: 'Time-based invoicing, project budgets and client profitability.',
  },
  {
    icon: Factory,
    title: 'Manufacturing',
    body: 'Purchase orders, inventory and cost of goods that add up.',
  },
];

export const SECURITY_BADGES: { icon: LucideIcon; title: string; body: string }[] = [
  { icon: Award, title: 'SOC 2 Type II', body: 'Independently audited controls' },
  { icon: Globe, title: 'GDPR', body: 'Compliant data processing' },
  { icon: Lock, title: '256-bit SSL', body: 'Encryption for every request' },
  { icon: Server, title: '99.9% uptime', body: 'Monitored around the clock' },
];
