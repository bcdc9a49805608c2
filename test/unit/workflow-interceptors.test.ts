import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow';
import { TRACE_HEADER as OPENTELEMETRY_TRACE_HEADER } from '@temporalio/interceptors-opentelemetry/lib/instrumentation';

import { INBOUND_METHODS, OUTBOUND_METHODS, TRACE_HEADER } from '../../workflows/interceptors';

/**
 * The workflow interceptors name OpenTelemetry's methods and header instead of importing them, so that an
 * untraced workflow never evaluates OpenTelemetry's modules; an SDK upgrade that changes either fails here.
 */
describe('the workflow interceptors, loading OpenTelemetry only for a traced workflow', () => {
  const methodsOf = (cls: { prototype: object }) =>
    Object.getOwnPropertyNames(cls.prototype)
      .filter((name) => name !== 'constructor')
      .sort();

  it('when OpenTelemetry’s interceptors are listed, then every method they implement is passed on to them', () => {
    expect([...INBOUND_METHODS].sort()).toEqual(methodsOf(OpenTelemetryInboundInterceptor));
    expect([...OUTBOUND_METHODS].sort()).toEqual(methodsOf(OpenTelemetryOutboundInterceptor));
  });

  it('when a start carries a trace, then it is recognised by OpenTelemetry’s own header', () => {
    expect(TRACE_HEADER).toBe(OPENTELEMETRY_TRACE_HEADER);
  });
});
