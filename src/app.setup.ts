import { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import { API_KEY_HEADER } from './auth/api-key.guard';
import { AppConfig } from './config/app-config';
import { HttpExceptionFilter } from './errors/http-exception.filter';
import { createValidationPipe } from './errors/validation';

/** Everything main.ts and the e2e tests both apply to the Nest application. */
export function configureApp(app: NestFastifyApplication, config: AppConfig): void {
  app.useGlobalFilters(new HttpExceptionFilter());
  app.useGlobalPipes(createValidationPipe());
  app.enableShutdownHooks();
  if (config.docsEnabled) {
    const document = SwaggerModule.createDocument(
      app,
      new DocumentBuilder()
        .setTitle('Tool availability service')
        .setDescription('State of each tool\'s availability: status per scope, cooldowns per error signature, manifest annotation.')
        .setVersion('1')
        .addApiKey({ type: 'apiKey', in: 'header', name: API_KEY_HEADER }, 'api-key')
        .build(),
    );
    SwaggerModule.setup('docs', app, document, { jsonDocumentUrl: 'docs/openapi.json' });
  }
}

export function fastifyOptions(config: AppConfig) {
  return { bodyLimit: config.bodyLimitBytes, return503OnClosing: true };
}
