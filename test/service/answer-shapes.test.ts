// Every operation's answer checked against its shape: the recorded answers pass, wrong types are named.
import { describe, expect, it } from 'vitest';
import { ANSWER_SHAPES, answerProblem, OPERATIONS, type Operation } from '@trk/service/operations/index.js';
import { fixtureJson } from '../fixture-files.js';

const items = (accepted: unknown, rejected: unknown = []) => ({ code: 0, data: { accepted, rejected } });

describe('answerProblem', () => {
  it('has a check for every operation', () => {
    expect(Object.keys(ANSWER_SHAPES).sort()).toEqual([...OPERATIONS].sort());
  });

  it('passes the recorded answers of the service, extra fields included', () => {
    const recorded: [Operation, string][] = [
      ['register', 'doc-v2/register_mixed.json'],
      ['register', 'doc-v2/register_already_registered.json'],
      ['register', 'real-v1/register_success_response.json'],
      ['register', 'real-v1/register_existing_response.json'],
      ['changeinfo', 'real-v1/changeinfo_success_response.json'],
      ['changeinfo', 'real-v1/changeinfo_nonexistant_response.json'],
      ['gettrackinfo', 'real-v1/gettrackinfo_success_response.json'],
      ['gettracklist', 'real-v1/gettracklist_success_response.json'],
      ['gettracklist', 'doc-v2/gettracklist_page.json'],
      ['getquota', 'doc-v2/getquota.json'],
    ];
    for (const [op, file] of recorded)
      expect(answerProblem(op, fixtureJson(file) as Record<string, unknown>), file).toBeUndefined();
    expect(
      answerProblem('stoptrack', {
        ...items([{ number: 'RR123456789CN', carrier: 3011, new_field: [1] }]),
        extra: true,
      }),
    ).toBeUndefined();
  });

  it('names what is wrong, by its kind and never its value', () => {
    expect(answerProblem('register', items('x'.repeat(400)))).toBe('data.accepted is a string, not a list');
    expect(answerProblem('register', items(5))).toBe('data.accepted is a number, not a list');
    expect(answerProblem('stoptrack', items([], [null]))).toBe('data.rejected[0] is null, not an object');
    expect(answerProblem('stoptrack', items([], [{ number: 'RR123456789CN', error: { code: '-1' } }]))).toBe(
      'data.rejected[0].error.code is a string, not a number',
    );
    expect(answerProblem('stoptrack', items([], [{ number: 'RR123456789CN' }]))).toBe(
      'data.rejected[0].error is missing, not an object',
    );
    expect(answerProblem('push', { code: 0, data: { accepted: [] } })).toBe('data.rejected is missing, not a list');
    expect(answerProblem('gettrackinfo', items([{ number: 7 }]))).toBe(
      'data.accepted[0].number is a number, not a string',
    );
    expect(answerProblem('register', items([{ number: 'RR123456789CN' }]))).toBe(
      'data.accepted[0].carrier is missing, not a number',
    );
    expect(answerProblem('getquota', { code: 0, data: null })).toBe('data is null, not an object');
    expect(answerProblem('getquota', { code: 0, data: {} })).toBe('data.quota_total is missing, not a number');
    expect(answerProblem('getquota', { code: 0, data: { quota_total: 1, quota_used: 0, quota_remain: '1' } })).toBe(
      'data.quota_remain is a string, not a number',
    );
    expect(answerProblem('gettracklist', { code: 0, data: { accepted: [] }, page: { page_total: 'two' } })).toBe(
      'page.page_total is a string, not a number',
    );
    expect(answerProblem('gettracklist', { code: 0, data: { accepted: [] } })).toBeUndefined();
  });
});
