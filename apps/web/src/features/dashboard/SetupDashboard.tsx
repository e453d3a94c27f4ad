import { KeyIcon } from '@heroicons/react/24/outline';
import type { ReactNode } from 'react';
import { Button } from '../../components/ui/Button';
import { Card } from '../../components/ui/Card';
import { InstallOptions } from '../children/InstallOptions';
import { Greeting } from './Greeting';

function Step({
  number,
  title,
  children,
}: {
  number: number;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <li className="flex gap-4">
      <span
        className="flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-violet-600 to-fuchsia-600 font-bold text-white"
        aria-hidden="true"
      >
        {number}
      </span>
      <div className="min-w-0 flex-1">
        <h3 className="font-semibold text-slate-900">
          <span className="sr-only">Step {number}: </span>
          {title}
        </h3>
        <div className="mt-1 text-sm text-slate-600">{children}</div>
      </div>
    </li>
  );
}

/** Situation 1 of the spec: the first child has no computer yet. */
export function SetupDashboard({
  child,
  now,
  onConnect,
  needsYou,
}: {
  child: { id: string; name: string };
  now: Date;
  /** opens the connection-code dialog (the home page owns it, so it outlives this situation) */
  onConnect: () => void;
  needsYou?: ReactNode;
}) {
  return (
    <div className="space-y-6">
      <Greeting now={now} title={`Let's connect ${child.name}'s computer`} />
      {needsYou}
      <Card>
        <h2 className="text-lg font-semibold text-slate-900">Two steps to finish setup</h2>
        <ol className="mt-6 space-y-8">
          <Step number={1} title={`Install a filter on ${child.name}'s device`}>
            <p>What works today, for each kind of device:</p>
            <h4 className="mt-3 text-sm font-semibold text-slate-900">A Mac</h4>
            <InstallOptions target="mac" />
            <h4 className="mt-3 text-sm font-semibold text-slate-900">An iPhone or iPad</h4>
            <InstallOptions target="ios" />
            <h4 className="mt-3 text-sm font-semibold text-slate-900">
              A Chromebook, a Windows or a Linux computer
            </h4>
            <InstallOptions target="chrome" />
          </Step>
          <Step number={2} title="Connect it">
            <p>Get a connection code here and enter it in what you installed.</p>
            <Button className="mt-3" onClick={onConnect}>
              <KeyIcon className="h-5 w-5" aria-hidden="true" />
              Get connection code
            </Button>
          </Step>
        </ol>
      </Card>
    </div>
  );
}
