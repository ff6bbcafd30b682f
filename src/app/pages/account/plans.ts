/** The display-only plan tiers (spec section 9 'Plans (display)' and section 6), exactly as stated. */
export interface PlanTier {
  name: 'Basic' | 'Starter' | 'Advanced' | 'Corporate';
  /** the price line after "from" */
  price: string;
  /** workflows, tasks, extra task and extra user prices */
  limits: string[];
  /** what section 6 says about the tier */
  features: string[];
}

export const PLAN_TIERS: PlanTier[] = [
  {
    name: 'Basic',
    price: 'US$100/month',
    limits: ['1 workflow', '100 tasks/month', 'Extra $1/task'],
    features: ['Limited connectors', 'Single user'],
  },
  {
    name: 'Starter',
    price: 'US$1,000',
    limits: ['2 workflows', '2000 tasks', 'Extra $0.50/task', 'Extra users $500'],
    features: ['Popular connectors'],
  },
  {
    name: 'Advanced',
    price: 'US$3,000',
    limits: ['3 workflows', '10,000 tasks', 'Extra $0.30/task', 'Extra users $300'],
    features: ['Full connectors', 'Team of 3'],
  },
  {
    name: 'Corporate',
    price: 'US$5,000',
    limits: ['Up to 10 workflows', '1 million tasks', 'Extra $0.005/task', 'Extra users $100'],
    features: ['Custom users'],
  },
];
