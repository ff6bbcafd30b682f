import type { ReactElement, ReactNode } from 'react';
import { Navigate, Route, Routes } from 'react-router-dom';
import type { RouteAccess } from '../core/plugin';
import { useRegistry, useSessionState } from './hooks';
import { AppLayout } from './layout/AppLayout';
import { LazyView } from './components/LazyView';
import LoginPage from './pages/LoginPage';
import RegisterPage from './pages/RegisterPage';
import ResetPasswordPage from './pages/ResetPasswordPage';
import MyAccountPage from './pages/MyAccountPage';
import HomePage from './pages/HomePage';
import SolutionsPage from './pages/SolutionsPage';
import SolutionWorkflowsPage from './pages/SolutionWorkflowsPage';
import WorkflowPage from './pages/WorkflowPage';
import CombinationsPage from './pages/CombinationsPage';
import CombinationSetupPage from './pages/CombinationSetupPage';
import BasicWorkflowPage from './pages/BasicWorkflowPage';
import MonitoringPage from './pages/MonitoringPage';
import NotFoundPage from './pages/NotFoundPage';

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

function RootRedirect() {
  const { isAuth } = useSessionState();
  return <Navigate to={isAuth ? '/home' : '/welcome'} replace />;
}

function Fallback() {
  const { isAuth } = useSessionState();
  if (!isAuth) return <Navigate to="/login" replace />;
  return (
    <AppLayout>
      <NotFoundPage />
    </AppLayout>
  );
}

export function AppRoutes() {
  const registry = useRegistry();
  const core = new Set(coreRoutes.map((r) => r.path));
  const pluginRoutes = registry.routes.contributions().filter((c) => {
    if (core.has(c.key)) throw new Error(`Plugin "${c.pluginId}" contributes route ${c.key}, which the shell owns`);
    return true;
  });
  return (
    <Routes>
      <Route path="/" element={<RootRedirect />} />
      {coreRoutes.map((r) => (
        <Route
          key={r.path}
          path={r.path}
          element={<Guard access={r.access}>{r.layout ? <AppLayout>{r.element}</AppLayout> : r.element}</Guard>}
        />
      ))}
      {pluginRoutes.map(({ key, value }) => {
        const view = <LazyView loader={value.view} />;
        return (
          <Route
            key={key}
            path={key}
            element={<Guard access={value.access}>{value.access === 'login' ? <AppLayout>{view}</AppLayout> : view}</Guard>}
          />
        );
      })}
      <Route path="*" element={<Fallback />} />
    </Routes>
  );
}
