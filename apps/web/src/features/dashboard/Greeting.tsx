import { greeting } from '@keyward/domain/wording';

export function Greeting({ now, title }: { now: Date; title: string }) {
  return (
    <div>
      <p className="text-sm font-semibold text-fuchsia-700">{greeting(now.getHours())}!</p>
      <h1 className="mt-1 text-3xl font-bold tracking-tight text-slate-900">{title}</h1>
    </div>
  );
}
