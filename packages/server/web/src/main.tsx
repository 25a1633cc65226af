import { render } from 'preact';
import { ApiClient } from './api/api-client';
import { App } from './app/app';
import './styles.css';

render(<App api={new ApiClient()} />, document.getElementById('root')!);
