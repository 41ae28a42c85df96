// ECharts' one-file build (its package exports it as `echarts/dist/echarts.esm.min`) has the API of `echarts`.
declare module 'echarts/dist/echarts.esm.min' {
  export * from 'echarts';
}
