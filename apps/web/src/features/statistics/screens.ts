/**
 * The dashboard and the statistics as one lazy chunk (with Recharts): two chunks of their own split more of
 * the antd code the sign-in page shares into small files of its own, each a request more on /login
 * (issue 35, e2e/first-load.spec.ts). Opening one screen brings the other's few KB along.
 */
export { DashboardPage } from './dashboard-page.tsx';
export { StatisticsPage } from './statistics-page.tsx';
