import { Suspense, lazy, useEffect, type ReactElement, type ReactNode } from 'react';
import { Spinner } from '@fluentui/react-components';
import { Navigate, Outlet, Route, Routes } from 'react-router-dom';
import type { RouteAccess } from '../core/plugin';
import { useRegistry, useSessionState } from './hooks';
import { LazyView } from './components/LazyView';

/** The product name every tab title ends with. */
export const PRODUCT_NAME = 'Flowmatic';

/** A tab title: 'Solutions · Flowmatic'. */
export function pageTitle(title: string | undefined): string {
  return title ? `${title} · ${PRODUCT_NAME}` : `${PRODUCT_NAME} – business automation with AI workflows`;
}

/** Sets the tab title while its route is shown. */
export function RouteTitle({ title }: { title?: string }) {
  useEffect(() => {
    document.title = pageTitle(title);
  }, [title]);
  return null;
}

/**
 * The signed-in layout (navigation, breadcrumb, Feedback tab) is a chunk of its own: /login,
 * /register and the public pages never download it.
 */
const AppLayout = lazy(() => import(/* webpackChunkName: "layout" */ './layout/AppLayout'));
const NotFoundPage = lazy(() => import(/* webpackChunkName: "page-not-found" */ './pages/NotFoundPage'));

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
  /** the tab title's first part */
  title?: string;
  /** inside the left navigation and header */
  layout: boolean;
}

/** The core route table; plugins add public routes such as /welcome, /mia and /hal. */
export const coreRoutes: ShellRoute[] = [
  { path: '/home', access: 'public', element: <HomePage />, layout: true, title: 'Home' },
  { path: '/login', access: 'public', element: <LoginPage />, layout: false, title: 'Log in' },
  { path: '/register', access: 'public', element: <RegisterPage />, layout: false, title: 'Create an account' },
  { path: '/reset-password', access: 'anonymous-only', element: <ResetPasswordPage />, layout: false, title: 'Reset password' },
  { path: '/solutions', access: 'login', element: <SolutionsPage />, layout: true, title: 'Solutions' },
  { path: '/solution/:id', access: 'login', element: <SolutionWorkflowsPage />, layout: true, title: 'Workflows' },
  { path: '/workflow/:id', access: 'login', element: <WorkflowPage />, layout: true, title: 'Workflow' },
  { path: '/solutions/combinations/:id', access: 'login', element: <CombinationsPage />, layout: true, title: 'Combinations' },
  { path: '/solutions/combinations/workflow/:id', access: 'login', element: <CombinationSetupPage />, layout: true, title: 'Combination setup' },
  { path: '/solutions/combinations/basic-workflow/:id', access: 'login', element: <BasicWorkflowPage />, layout: true, title: 'Combination setup' },
  { path: '/my-account', access: 'login', element: <MyAccountPage />, layout: true, title: 'My Account' },
];

// padding, not margin: a margin would collapse through #root and push <body> down, and the
// page would shift up when it arrives (layout shift)
const page = (element: ReactElement) => (
  <Suspense
    fallback={
      <div style={{ paddingTop: 48 }}>
        <Spinner label="Loading..." />
      </div>
    }
  >
    {element}
  </Suspense>
);

function RootRedirect() {
  const { isAuth } = useSessionState();
  return <Navigate to={isAuth ? '/home' : '/welcome'} replace />;
}

/** The layout stays mounted while the pages inside it change (no refetch, no flicker). */
function LayoutOutlet() {
  return page(<AppLayout>{page(<Outlet />)}</AppLayout>);
}

export function AppRoutes() {
  const registry = useRegistry();
  const core = new Set(coreRoutes.map((r) => r.path));
  const pluginRoutes: ShellRoute[] = registry.routes.contributions().map(({ key, value, pluginId }) => {
    if (core.has(key)) throw new Error(`Plugin "${pluginId}" contributes route ${key}, which the shell owns`);
    return { path: key, access: value.access, element: <LazyView loader={value.view} />, layout: value.access === 'login', title: value.title };
  });
  const all = [...coreRoutes, ...pluginRoutes];
  const route = (r: ShellRoute, element: ReactElement) => (
    <Route
      key={r.path}
      path={r.path}
      element={
        <Guard access={r.access}>
          <RouteTitle title={r.title} />
          {element}
        </Guard>
      }
    />
  );
  return (
    <Routes>
      <Route path="/" element={<RootRedirect />} />
      <Route element={<LayoutOutlet />}>
        {all.filter((r) => r.layout).map((r) => route(r, r.element))}
        {/* any other path: the 404 page when logged in, else /login */}
        <Route
          path="*"
          element={
            <Guard access="login">
              <RouteTitle title="Page not found" />
              <NotFoundPage />
            </Guard>
          }
        />
      </Route>
      {all.filter((r) => !r.layout).map((r) => route(r, page(r.element)))}
    </Routes>
  );
}
