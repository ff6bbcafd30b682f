import { Suspense, lazy, type ReactElement, type ReactNode } from 'react';
import { Spinner } from '@fluentui/react-components';
import { Navigate, Outlet, Route, Routes } from 'react-router-dom';
import type { RouteAccess } from '../core/plugin';
import { useRegistry, useSessionState } from './hooks';
import { AppLayout } from './layout/AppLayout';
import { LazyView } from './components/LazyView';
import NotFoundPage from './pages/NotFoundPage';

/** Pages load on first visit, so the first screen downloads only what it shows. */
const LoginPage = lazy(() => import(/* webpackChunkName: "page-login" */ './pages/LoginPage'));
const RegisterPage = lazy(() => import(/* webpackChunkName: "page-register" */ './pages/RegisterPage'));
const ResetPasswordPage = lazy(() => import(/* webpackChunkName: "page-reset-password" */ './pages/ResetPasswordPage'));
const MyAccountPage = lazy(() => import(/* webpackChunkName: "page-my-account" */ './pages/MyAccountPage'));
const HomePage = lazy(() => import(/* webpackChunkName: "page-home" */ './pages/HomePage'));
const SolutionsPage = lazy(() => import(/* webpackChunkName: "page-solutions" */ './pages/SolutionsPage'));
const SolutionWorkflowsPage = lazy(() => import(/* webpackChunkName: "page-solution-workflows" */ './pages/SolutionWorkflowsPage'));
const WorkflowPage = lazy(() => import(/* webpackChunkName: "page-workflow" */ './pages/WorkflowPage'));
const CombinationsPage = lazy(() => import(/* webpackChunkName: "page-combinations" */ './pages/CombinationsPage'));
const CombinationSetupPage = lazy(() => import(/* webpackChunkName: "page-combination-setup" */ './pages/CombinationSetupPage'));
const BasicWorkflowPage = lazy(() => import(/* webpackChunkName: "page-basic-workflow" */ './pages/BasicWorkflowPage'));
const MonitoringPage = lazy(() => import(/* webpackChunkName: "page-monitoring" */ './pages/MonitoringPage'));

/** Applies a route's access rule (spec section 2, route table). */
export function Guard({ access, children }: { access: RouteAccess; children: ReactNode }): ReactElement {
  const { isAuth } = useSessionState();
  if (access === 'login' && !isAuth) return <Navigate to="/login" replace />;
  if (access === 'anonymous-only' && isAuth) return <Navigate to="/solutions" replace />;
  return <>{children}</>;
}

interface ShellRoute {
  path: string;
  access: RouteAccess;
  element: ReactElement;
  /** inside the left navigation and header */
  layout: boolean;
}

/** The core route table; plugins add public routes such as /welcome, /mia and /hal. */
export const coreRoutes: ShellRoute[] = [
  { path: '/home', access: 'public', element: <HomePage />, layout: true },
  { path: '/login', access: 'public', element: <LoginPage />, layout: false },
  { path: '/register', access: 'public', element: <RegisterPage />, layout: false },
  { path: '/reset-password', access: 'anonymous-only', element: <ResetPasswordPage />, layout: false },
  { path: '/solutions', access: 'login', element: <SolutionsPage />, layout: true },
  { path: '/solution/:id', access: 'login', element: <SolutionWorkflowsPage />, layout: true },
  { path: '/workflow/:id', access: 'login', element: <WorkflowPage />, layout: true },
  { path: '/solutions/combinations/:id', access: 'login', element: <CombinationsPage />, layout: true },
  { path: '/solutions/combinations/workflow/:id', access: 'login', element: <CombinationSetupPage />, layout: true },
  { path: '/solutions/combinations/basic-workflow/:id', access: 'login', element: <BasicWorkflowPage />, layout: true },
  { path: '/monitoring/:id', access: 'login', element: <MonitoringPage />, layout: true },
  { path: '/my-account', access: 'login', element: <MyAccountPage />, layout: true },
];

const page = (element: ReactElement) => <Suspense fallback={<Spinner label="Loading..." style={{ marginTop: 48 }} />}>{element}</Suspense>;

function RootRedirect() {
  const { isAuth } = useSessionState();
  return <Navigate to={isAuth ? '/home' : '/welcome'} replace />;
}

/** The layout stays mounted while the pages inside it change (no refetch, no flicker). */
function LayoutOutlet() {
  return <AppLayout>{page(<Outlet />)}</AppLayout>;
}

export function AppRoutes() {
  const registry = useRegistry();
  const core = new Set(coreRoutes.map((r) => r.path));
  const pluginRoutes: ShellRoute[] = registry.routes.contributions().map(({ key, value, pluginId }) => {
    if (core.has(key)) throw new Error(`Plugin "${pluginId}" contributes route ${key}, which the shell owns`);
    return { path: key, access: value.access, element: <LazyView loader={value.view} />, layout: value.access === 'login' };
  });
  const all = [...coreRoutes, ...pluginRoutes];
  const route = (r: ShellRoute, element: ReactElement) => <Route key={r.path} path={r.path} element={<Guard access={r.access}>{element}</Guard>} />;
  return (
    <Routes>
      <Route path="/" element={<RootRedirect />} />
      <Route element={<LayoutOutlet />}>
        {all.filter((r) => r.layout).map((r) => route(r, r.element))}
        {/* any other path: the 404 page when logged in, else /login */}
        <Route path="*" element={<Guard access="login"><NotFoundPage /></Guard>} />
      </Route>
      {all.filter((r) => !r.layout).map((r) => route(r, page(r.element)))}
    </Routes>
  );
}
