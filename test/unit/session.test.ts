// Sessions without a server: what a model keeps per session is made afresh once the session changes,
// and a load running when a session ends with a reason (a sign-out) answers that reason, at once.
import * as assert from 'node:assert/strict';
import { PerSession, type ServerSession, SessionScope } from '../../src/platform/session';

function sessions() {
  let scope = new SessionScope();
  const session: ServerSession = {
    client: () => Promise.reject(new Error('no server in this test')),
    currentUser: () => Promise.reject(new Error('no server in this test')),
    scope: () => scope,
  };
  return {
    session,
    next(reason?: Error) {
      scope.end(reason);
      scope = new SessionScope();
    },
  };
}

describe('Sessions: per-session values and loads that outlive their session', () => {
  it('a per-session value is kept within a session and made afresh in the next', () => {
    const s = sessions();
    const cache = new PerSession(s.session, () => new Map<string, string>());
    cache.get().set('lookup:Chemists', 'answer');
    assert.equal(cache.get().get('lookup:Chemists'), 'answer');
    s.next();
    assert.equal(cache.get().size, 0, 'the next session starts empty');
    cache.get().set('k', 'v');
    cache.reset();
    assert.equal(cache.get().size, 0, 'reset drops the value now');
  });

  it('a load that ends after a sign-out rejects with its reason; after another change it answers', async () => {
    const s = sessions();
    let finish: (v: string) => void = () => undefined;
    const running = new Promise<string>((resolve) => (finish = resolve));
    const guarded = s.session.scope!().guard(running);
    const signedOut = new Error('You are not signed in');
    s.next(signedOut);
    finish("the last session's groups");
    await assert.rejects(guarded, (e) => e === signedOut);

    const switched = s.session.scope!().guard(Promise.resolve('answer'));
    s.next();
    assert.equal(await switched, 'answer', 'a switch without a reason lets the answer through');
    // A failure of a load of a signed-out session is the sign-in reason too.
    const failing = s.session.scope!().guard(Promise.reject(new Error('network')));
    s.next(signedOut);
    await assert.rejects(failing, (e) => e === signedOut);
  });

  it('a sign-out answers a load still waiting on the server at once, not when the server answers', async () => {
    const s = sessions();
    const never = new Promise<string>(() => undefined);
    const scope = s.session.scope!();
    const guarded = scope.guard(never);
    const signedOut = new Error('You are not signed in');
    s.next(signedOut);
    await assert.rejects(guarded, (e) => e === signedOut);
    // A load started afterwards on the ended session (a stale reference to it) answers the same, at once.
    await assert.rejects(scope.guard(never), (e) => e === signedOut);
  });
});
