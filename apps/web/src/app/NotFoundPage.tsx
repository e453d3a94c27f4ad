import { LinkButton } from '../components/ui/Button';

export default function NotFoundPage() {
  return (
    <div className="mx-auto max-w-lg py-16 text-center">
      <p className="text-sm font-semibold text-fuchsia-700">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight text-slate-900">Page not found</h1>
      <p className="mt-4 text-slate-600">
        Sorry, we couldn't find that page. It may have moved, or it isn't ready yet.
      </p>
      <div className="mt-8">
        <LinkButton to="/">Back to dashboard</LinkButton>
      </div>
    </div>
  );
}
